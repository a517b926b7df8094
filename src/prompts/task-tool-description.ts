/**
 * Description of the lead's `task` tool (SPEC §7.2): when delegating pays, when it does not,
 * and how to read what comes back.
 */
export function buildTaskToolDescription(options: { bashAvailable: boolean; receiptsEnabled: boolean }): string {
  const lines = [
    'Delegate one bounded task to a specialized subagent that works in its own context and returns its report.',
    'Use it only when the expected benefit clearly exceeds the overhead: material wall-clock savings from independent parallel work, specialist tools, skills, models or instructions, or context isolation for a context-heavy investigation.',
    '',
    'Subagent types:',
    '- general-purpose: bounded exploration or action with specialist or isolation benefit, or one of several independent, non-overlapping parallel tasks.',
  ];
  if (options.bashAvailable) {
    lines.push(
      '- bash: bounded shell workflows with a clear isolation or parallel benefit (available only when host bash is allowed or an isolated sandbox runs the commands). Routine git, build, test, or deploy operations are not sufficient reason to delegate.',
    );
  }
  lines.push(
    '- Custom types come from `subagents.custom_agents`; an unknown type returns an error listing the available types.',
    '',
    'Do NOT use it for:',
    '- work that is merely complex or long, with no parallel, specialist or isolation benefit;',
    '- Splitting dependent steps across parallel subagents: a step that needs another step\'s output belongs with it;',
    '- scopes that touch overlapping files, shared state or external side effects;',
    '- tasks that need interaction with the user.',
    'Costs to weigh: repeated repository discovery, coordination, verification and synthesis, and a cheaper direct path.',
    '',
    'Results are SELF-REPORTS, not verified facts.',
  );
  if (options.receiptsEnabled) {
    lines.push(
      'Action claims must cite receipts like `[r1 bash]`; uncited claims are flagged UNVERIFIED, and a resolved citation only proves the call happened: it does not validate that the adjacent claim is correct. spot-check verifiable handles (paths, URLs, ids) before relying on them.',
    );
  } else {
    lines.push(
      'verification.receipts_enabled is off: When receipt verification is disabled, reports carry no receipt citations and no citation verdict; spot-check verifiable handles (paths, URLs, ids) before relying on them.',
    );
  }
  lines.push(
    '',
    'Arguments, in this order: `description` (3-5 words, ALWAYS FIRST), `prompt` (the complete, self-contained task, ALWAYS SECOND), `subagent_type` (ALWAYS THIRD), and optionally `acceptance_criteria`.',
  );
  return lines.join('\n');
}

/** Description of the optional `acceptance_criteria` argument. */
export const ACCEPTANCE_CRITERIA_DESCRIPTION =
  'Optional objectively checkable outcomes the report must address, e.g. `file:<path> non-empty` or `tests_passed:<command>`.';
