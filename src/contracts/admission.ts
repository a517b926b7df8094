import type { AdmissionSettings } from './admission-snapshot';
import type { AdmissionDecision } from './workflow-io';

/** Under `reject` (or `max_queued: 0`), how long a task may take to reach a free slot before it is rejected. */
export const REJECT_DISPATCH_GRACE_SECONDS = 5;

/**
 * Admission of a lead response's tasks (SPEC Appendix C.1), pure. `queued` is how many subagent
 * executions already wait for a slot (the `deerflow-subagents` backlog). Tasks waiting already mean
 * no slot is free: under `reject` every task is refused; under `queue`, tasks beyond `max_queued`
 * are. When nothing waits, all are admitted: some start at once, the rest queue. Refused tasks
 * never reach a model.
 */
export function decideAdmission(requested: number, queued: number, runtime: AdmissionSettings): AdmissionDecision {
  const capacityMessage = `Subagent execution capacity is full (${runtime.max_running} running, ${queued} queued)`;
  const noWaiting = runtime.admission_policy === 'reject' || runtime.max_queued === 0;
  if (noWaiting) {
    return {
      policy: 'reject',
      admitted: queued > 0 ? 0 : requested,
      rejection: queued > 0 ? capacityMessage : null,
      scheduleToStartSeconds: REJECT_DISPATCH_GRACE_SECONDS,
      capacityMessage,
    };
  }
  const admitted = queued === 0 ? requested : Math.min(requested, Math.max(0, runtime.max_queued - queued));
  return {
    policy: 'queue',
    admitted,
    rejection: admitted < requested ? capacityMessage : null,
    scheduleToStartSeconds: runtime.queue_timeout_seconds,
    capacityMessage,
  };
}
