import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import { registerBatchRoutes } from './batches-routes';
import { GatewayError, GatewayErrorCode, isGatewayError, type ErrorBody } from './errors';
import { registerEventRoutes } from './events-routes';
import type { GatewayDeps } from './gateway-deps';
import { setCaller } from './request-caller';
import { requestOriginHook, resolveOriginPolicy } from './request-origin';
import { registerRunRoutes } from './runs-routes';
import { threadOwnerHook } from './thread-access';

/** Largest accepted request body (a run request is one message); routes may set their own. */
const BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * Longest path parameter (decoded) the router matches. Run and task ids may be 200 characters
 * (thread and batch ids 128, see validation.ts); Fastify's default of 100 would answer a valid long
 * id with its generic 414 before the route could look at it. The margin lets a slightly too long id
 * reach the route's validation too, for a 400 naming the parameter; longer ones get a 400 naming `path`.
 */
export const MAX_PARAM_LENGTH = 512;

/**
 * The response for an error the router raises before any hook or route runs; Fastify would
 * otherwise answer it with its own body shape, not {@link ErrorBody}.
 */
function routerError(err: FastifyError): GatewayError | null {
  if (err.code === 'FST_ERR_BAD_URL') return GatewayError.badRequest('path', 'malformed percent-encoding');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return GatewayError.badRequest('path', `a path parameter is longer than ${MAX_PARAM_LENGTH} characters`);
  return null;
}

/** Fastify's own client errors (bad JSON, wrong content type, too large) carry a 4xx `statusCode`. */
function isFastifyClientError(err: unknown): err is FastifyError & { statusCode: number } {
  if (typeof err !== 'object' || err === null) return false;
  const status = (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * The response for an error thrown by a route, a hook or Fastify itself.
 * @param bodyLimit - the body limit of the route the request was for
 */
function toGatewayError(err: unknown, bodyLimit: number): GatewayError | null {
  if (isGatewayError(err)) return err;
  if (!isFastifyClientError(err)) return null;
  if (err.statusCode === 415) return new GatewayError(GatewayErrorCode.UnsupportedMediaType, 'body: must be JSON (Content-Type: application/json)', 'body');
  if (err.statusCode === 413) return new GatewayError(GatewayErrorCode.PayloadTooLarge, `body: larger than ${bodyLimit} bytes`, 'body');
  return GatewayError.badRequest('body', err.message);
}

/**
 * The HTTP API + SSE as a Fastify app, not listening yet (tests use `inject` or listen on an
 * ephemeral port; `startGateway` listens on the configured address). Every route under `/api`
 * requires the caller to authenticate first; errors are `{ error: { code, message, field? } }`.
 * @throws GatewaySetupError `invalid_origin` for a bad `deps.allowedOrigins` entry.
 */
export function buildGatewayApp(deps: GatewayDeps): FastifyInstance {
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const originPolicy = resolveOriginPolicy(deps.auth.required, deps.allowedOrigins);
  // `forceCloseConnections` so `close()` does not wait for open SSE streams to be closed by clients.
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    forceCloseConnections: true,
    frameworkErrors: (err, _request, reply: FastifyReply) => {
      const known = routerError(err);
      if (known === null) log(`gateway: ${err.stack ?? err.message}`);
      const error = known ?? new GatewayError(GatewayErrorCode.Internal, 'internal error');
      const body: ErrorBody = error.toBody();
      void reply.code(error.status).send(body);
    },
  });
  const shutdown = new AbortController();
  const streams = new Set<Promise<void>>();
  const track = (stream: Promise<void>) => {
    streams.add(stream);
    const forget = () => void streams.delete(stream);
    stream.then(forget, forget);
  };

  // Host/Origin first: a refused browser page learns nothing, not even whether it needs a token.
  app.addHook('onRequest', requestOriginHook(originPolicy));
  app.addHook('onRequest', async (request) => {
    setCaller(request, deps.auth.authenticate(request.headers.authorization));
  });
  app.addHook('preHandler', threadOwnerHook(deps));
  // End live streams before connections are force-closed, so each client sees a clean end of
  // response (and reconnects with Last-Event-ID) rather than a reset.
  app.addHook('preClose', async () => {
    shutdown.abort();
    await Promise.allSettled([...streams]);
  });

  app.setErrorHandler(async (err, request, reply) => {
    const known = toGatewayError(err, request.routeOptions.bodyLimit);
    if (known === null) log(`gateway: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const error = known ?? new GatewayError(GatewayErrorCode.Internal, 'internal error');
    if (error.code === GatewayErrorCode.Unauthorized) void reply.header('www-authenticate', 'Bearer');
    const body: ErrorBody = error.toBody();
    return reply.code(error.status).send(body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const body: ErrorBody = new GatewayError(GatewayErrorCode.NotFound, `no route ${request.method} ${request.url.split('?')[0] ?? ''}`).toBody();
    return reply.code(404).send(body);
  });

  registerRunRoutes(app, deps);
  registerEventRoutes(app, deps, { shutdown: shutdown.signal, track });
  registerBatchRoutes(app, deps);
  return app;
}
