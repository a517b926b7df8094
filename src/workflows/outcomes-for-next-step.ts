import type { CallOutcome } from '../contracts';

/**
 * Whether a burst of outcomes is left to the next model step to write (patch
 * `lead-outcomes-in-step`): only the last outcomes of a response (every call still open is in the
 * burst), none that takes its spend from the store (that spend goes back to the run, which a model
 * step's result does not carry), and only when a model step comes next: not while the run waits
 * for the user to answer its question. A run that stops or continues as new before that step
 * writes them itself.
 */
export function writtenByNextStep(burst: readonly CallOutcome[], open: ReadonlyMap<string, unknown>, awaitingAnswer: boolean): boolean {
  if (awaitingAnswer) return false;
  if (burst.some(({ outcome }) => outcome.kind === 'subagent' && outcome.spendInStore === true)) return false;
  const inBurst = new Set(burst.map(({ callId }) => callId));
  return [...open.keys()].every((callId) => inBurst.has(callId));
}
