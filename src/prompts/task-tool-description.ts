import { ROUTINE_OPS_SENTENCE } from './delegation-policy';
import { formatReceiptCitation } from './receipt-citation';

/**
 * Description of the lead's `task` tool (SPEC §7.2), in our own words: when delegating pays,
 * when it does not, and how much to trust what comes back.
 */
export function buildTaskToolDescription(options: { bashAvailable: boolean; receiptsEnabled: boolean }): string {
  const lines = [
    'Hand one bounded task to a specialized subagent, which works in its own context and returns a report.',
    'Call it only when the expected benefit clearly exceeds the overhead of delegating.',
    '',
    'Use it when:',
    '- independent, non-overlapping pieces of work can run in parallel and that saves material wall-clock time;',
    '- a subagent brings specialist tools, skills, a model or instructions that you lack;',
    '- a bounded, context-heavy investigation should stay out of your own context.',
    '',
    'Subagent types:',
    '- general-purpose: bounded exploration or action with a specialist or isolation benefit, or one of several independent, non-overlapping parallel tasks.',
  ];
  if (options.bashAvailable) {
    lines.push(
      `- bash: bounded shell workflows with a clear isolation or parallel benefit; offered only when host bash is allowed or an isolated sandbox (such as AioSandboxProvider) runs the commands. ${ROUTINE_OPS_SENTENCE}`,
    );
  }
  lines.push(
    '- custom types defined under `subagents.custom_agents`; an unknown type returns an error that lists the available types.',
    '',
    'Do NOT use it for:',
    '- work that is merely complex or long, with no parallel, specialist or isolation benefit;',
    "- Splitting dependent steps across parallel subagents: a step that needs another step's output belongs with that step;",
    '- scopes that touch overlapping files, shared mutable state or external side effects;',
    '- anything that needs interaction with the user.',
    'Costs to weigh: the subagent re-discovers the repository, you coordinate, verify and synthesize its result, and a direct path may simply be cheaper.',
    '',
    'What comes back is a SELF-REPORT from the subagent, not a verified fact.',
  );
  if (options.receiptsEnabled) {
    lines.push(
      `With verification.receipts_enabled on, action claims cite tool receipts such as ${formatReceiptCitation(2, 'read_file')}; claims without a citation are flagged UNVERIFIED. A resolved citation proves only that the call happened: it does not validate that the adjacent claim is correct, so spot-check the verifiable handles (paths, URLs, ids) you rely on.`,
    );
  } else {
    lines.push(
      'With verification.receipts_enabled off, receipt verification is disabled: reports carry no receipt citations and receive no citation verdict, so spot-check the verifiable handles (paths, URLs, ids) you rely on.',
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
  'Optional list of objectively checkable outcomes the report must address one by one, e.g. `file:<path> non-empty` or `tests_passed:<command>`.';
