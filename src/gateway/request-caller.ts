import type { FastifyRequest } from 'fastify';
import type { Caller } from './auth';

// A WeakMap rather than a request decorator: no global type augmentation of FastifyRequest.
const callers = new WeakMap<FastifyRequest, Caller>();

/** Records who is calling (done once per request by the auth hook). */
export function setCaller(request: FastifyRequest, caller: Caller): void {
  callers.set(request, caller);
}

/**
 * Who is calling.
 * @throws Error when the auth hook did not run for this request (a wiring bug, not a client error).
 */
export function callerOf(request: FastifyRequest): Caller {
  const caller = callers.get(request);
  if (caller === undefined) throw new Error('gateway: request reached a route without authentication');
  return caller;
}
