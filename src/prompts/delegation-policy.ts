/**
 * The benefit-based delegation policy pieces shared by the routing section, the lead's reminder
 * bullets, the task tool description and the role descriptions (design note "Benefit-based
 * routing policy"): kept in one place so the texts cannot drift apart.
 */

/** Upper bounds the runtime enforces, whatever a caller passes. */
const MAX_PER_RESPONSE = 64;
const MAX_PER_RUN = 50;

/**
 * Clamped like the delegation-limit logic, so a prompt can never advertise more than the run
 * enforces (per response 1..64, per run 1..50).
 */
export function clampLimits(maxConcurrent: number, maxTotal: number): { readonly n: number; readonly total: number } {
  return {
    n: Math.max(1, Math.min(Math.floor(maxConcurrent), MAX_PER_RESPONSE)),
    total: Math.max(1, Math.min(Math.floor(maxTotal), MAX_PER_RUN)),
  };
}

/** One sentence, identical in the routing section, the task tool description and the bash description. */
export const ROUTINE_OPS_SENTENCE = 'Routine git, build, test, or deploy operations are not sufficient reason to delegate.';

/** The `<thinking_style>` bullet: the check to run before planning any `task` call. */
export function delegationCheckBullet(maxConcurrent: number, maxTotal: number): string {
  const { n } = clampLimits(maxConcurrent, maxTotal);
  if (n === 1) {
    return '- DELEGATION CHECK before any `task` call: look for the direct path first; delegate only when specialist capability or context isolation clearly outweighs the cost (at 1 `task` call per response, parallel dispatch saves no time); plan at most 1 `task` call per response.';
  }
  return `- DELEGATION CHECK before any \`task\` call: look for the direct path first; rule out parallel scopes that need each other's output or share mutable state; delegate only when parallel time savings, specialist capability or context isolation clearly outweigh the cost; use as few subagents as possible and plan at most ${n} \`task\` calls per response.`;
}

/** The `<critical_reminders>` bullet: the policy in one line plus the enforced numbers. */
export function benefitBasedDelegationBullet(maxConcurrent: number, maxTotal: number): string {
  const { n, total } = clampLimits(maxConcurrent, maxTotal);
  const costs = 'the cost of startup, repeated discovery, merging results, conflicting state and side effects';
  const limits = `Hard limits, no exceptions: at most ${n} \`task\` ${n === 1 ? 'call' : 'calls'} per response and ${total} per run; calls beyond them are dropped and their work is lost.`;
  if (n === 1) {
    return `- **Benefit-Based Delegation**: Work directly by default. Call \`task\` only when specialist capability or context isolation clearly exceeds ${costs}; with 1 \`task\` call per response, parallel dispatch saves no time. ${limits}`;
  }
  return `- **Benefit-Based Delegation**: Work directly by default. Call \`task\` only when the gain from genuinely parallel work, specialist capability or context isolation clearly exceeds ${costs}. Use as few subagents as the job needs. ${limits}`;
}
