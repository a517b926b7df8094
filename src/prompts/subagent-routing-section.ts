import { escapeHtml } from './escape-html';
import { clampLimits, ROUTINE_OPS_SENTENCE } from './delegation-policy';

/** A subagent as listed to the lead. */
export interface ListedSubagent {
  readonly name: string;
  readonly description: string;
  readonly builtin: boolean;
}

export interface RoutingSectionOptions {
  /** The per-response limit the run enforces. */
  readonly maxConcurrent: number;
  /** The per-run limit the run enforces. */
  readonly maxTotal: number;
  readonly subagents: readonly ListedSubagent[];
  /** `verification.receipts_enabled`: whether delegated reports carry checked receipt citations. */
  readonly receiptsEnabled: boolean;
}

/**
 * Compact summaries of the built-ins. The parallel clause sits on its own line so that the
 * limit-1 prompt can drop it without rewording the rest.
 */
const BUILTIN_SUMMARIES: Readonly<Record<string, { readonly base: string; readonly parallel: string }>> = {
  'general-purpose': {
    base: 'bounded exploration or changes where delegating clearly pays off through specialist capability or context isolation.',
    parallel: 'In a parallel batch it can own one independent, non-overlapping part of the work.',
  },
  bash: {
    base: `bounded shell workflows whose logs would crowd your context, or a justified chain of commands kept in one isolated context. ${ROUTINE_OPS_SENTENCE}`,
    parallel: 'In a parallel batch it can own an independent, non-overlapping shell workload.',
  },
};

function listing(subagents: readonly ListedSubagent[], parallel: boolean): string[] {
  return subagents.flatMap((s) => {
    const builtin = s.builtin ? BUILTIN_SUMMARIES[s.name] : undefined;
    if (builtin === undefined) {
      // Custom names and descriptions are not ours: only the first line, escaped so neither can
      // close our block or open a framework tag.
      return [`- **${escapeHtml(s.name)}**: ${escapeHtml((s.description.split('\n')[0] ?? '').trim())}`];
    }
    return parallel ? [`- **${s.name}**: ${builtin.base}`, `  ${builtin.parallel}`] : [`- **${s.name}**: ${builtin.base}`];
  });
}

function verificationStep(receiptsEnabled: boolean): string {
  const evidence = receiptsEnabled
    ? 'The receipt citations in a report are evidence that its tool calls ran; a resolved citation proves the call happened, not that the claim next to it is true, so spot-check the verifiable handles (paths, URLs, ids) that matter.'
    : 'Receipt citations are disabled in this configuration, so reports carry no execution evidence: rely on verifiable handles (paths, URLs, ids) and spot-check the ones that matter.';
  return `6. Check results before you synthesize them. ${evidence} When a result contradicts another result or what you know, settle it against primary evidence (files, command output, sources).`;
}

/**
 * The lead's `<subagent_system>` section (SPEC §7.1), in our own words: delegation is an
 * optimisation, working directly is the default, and the hard limits are the numbers the run
 * enforces. With a per-response limit of 1, every parallel and multi-batch element is left out;
 * the lines that replace them say why parallel dispatch does not help.
 */
export function buildSubagentRoutingSection(options: RoutingSectionOptions): string {
  const { n, total } = clampLimits(options.maxConcurrent, options.maxTotal);
  const parallel = n > 1;
  const bash = options.subagents.some((s) => s.name === 'bash');
  const when = (cond: boolean, ...lines: string[]): string[] => (cond ? lines : []);
  const parts: string[] = [
    '<subagent_system>',
    '## Subagent routing: delegate only for a clear net gain',
    '',
    'Default to direct execution: subagents are an optimization you may use, not the default way to work. Do the work yourself unless delegating clearly pays off. Being complex, having many steps, producing long output or touching a large repository is not, on its own, a reason to delegate.',
    '',
    '### DELEGATION CHECK (before every `task` call)',
    parallel
      ? '- Benefit = time saved by running independent scopes in parallel + specialist capability + context isolation'
      : '- Benefit = specialist capability + context isolation (at 1 `task` call per response, parallel dispatch saves no time)',
    '- Cost = startup overhead + re-reading context and re-discovering the repository + coordinating and merging results + risk of conflicting state + risk of unwanted side effects',
    '- Delegate only if the benefit clearly outweighs the cost. If you are unsure, do it yourself.',
    'Steps that depend on each other are not by themselves a reason to avoid delegating: one subagent may take a bounded sequential chain when specialist capability or context isolation clearly wins.',
    ...when(
      parallel,
      '',
      '### Vetoes for parallel dispatch',
      "- Dependent scopes: when one scope needs another's output, keep those steps together instead of splitting them across parallel subagents.",
      '- Unsafe shared state: scopes that touch overlapping files, shared mutable state or external side effects must not run in parallel unless each owns a disjoint part.',
    ),
    '',
    '### Costs and warning signs',
    '- Repeated discovery: a subagent starts without your context and may re-read what you already know.',
    '- A cheap direct path: if a few tool calls of your own would do it, make them.',
    '- Coordination load: you have to check and merge every delegated result.',
    '- An unclear request: clarify it before delegating anything.',
    '',
    '### Benefits that count',
    ...when(parallel, '- Parallel speed: independent, non-overlapping scopes finish sooner side by side.'),
    '- Specialist capability: a subagent with tools, skills, a model or instructions you lack.',
    '- Context isolation: a bounded investigation full of detail you will not need afterwards.',
    parallel
      ? '- Launch as few subagents as the job needs; parallel scopes must be independent and must not overlap.'
      : '- Only 1 `task` call per response is allowed here, so parallel dispatch cannot make anything faster: delegate only for a material specialist or context-isolation benefit.',
    '',
    '### Hard limits (enforced by the runtime)',
    `- MAXIMUM ${n} \`task\` CALLS PER RESPONSE. Never emit more: extra calls in the same response are dropped without running, and their work is lost.`,
    `- MAXIMUM ${total} \`task\` CALLS PER RUN. Never go beyond it: later calls are dropped too. Only delegations for the current request count; earlier runs in this thread do not use up this allowance.`,
    ...when(parallel, '- Never start a batch that would break either limit.'),
    '- Once the run allowance is spent, synthesize what you have and finish the rest yourself.',
    '',
    '### After each result',
    parallel
      ? 'Re-assess the remaining work after every batch. A later batch must not overlap an earlier one, but it can still save real time by running its own independent scopes in parallel.'
      : 'Re-assess the remaining work after each result. Do not string delegations together to get around the limit of 1 `task` call per response.',
    '',
    '### Available subagents',
    ...listing(options.subagents, parallel),
    '',
    '### How to proceed',
    '1. Look for the cheapest direct path first.',
    '2. Check the costs and warning signs.',
    ...when(parallel, '   For a parallel batch, also apply the vetoes: no dependent scopes, no shared mutable state.'),
    '3. Weigh the benefit against the cost.',
    '4. Give each subagent a bounded scope that overlaps no other, with the context it needs, the output you expect and the side effects it may own. When an outcome can be checked objectively, attach it as `acceptance_criteria`.',
    parallel
      ? `5. Launch the smallest batch that pays off: at most ${n} calls in parallel, and no more than the run allowance left.`
      : '5. Launch at most 1 `task` call per response, within the run allowance left.',
    verificationStep(options.receiptsEnabled),
    '',
    '### Examples',
    '- Refactoring a module and updating its tests: do it yourself.',
    ...when(parallel, '- Comparing several independent providers: one read-only subagent per provider, in one parallel batch, can save real time.'),
    '- A specialist subagent: only when its capability materially changes the outcome.',
    '- A context-heavy investigation whose details you will not need: one subagent can keep them out of your context.',
    '- Routine tests, builds or git commands: run them yourself.',
    ...when(
      parallel,
      '',
      `Several batches (at most ${n} calls per batch):`,
      `- First batch: launch up to ${n} independent scopes in parallel.`,
      '- Wait for the whole first batch, then re-assess what is left.',
      '- Second batch: only scopes that still pay off and do not repeat or overlap the first batch.',
      '- Synthesize everything you kept from both batches.',
    ),
    '',
    bash
      ? 'Everything else, do directly with your own tools (bash, ls, read_file, write_file, etc.), e.g. `bash("npm test")`.'
      : 'Everything else, do directly with your own tools (ls, read_file, write_file, etc.), e.g. `read_file("/mnt/user-data/workspace/README.md")`.',
    'A `task` call blocks until the subagent finishes and returns its report; there is nothing to poll.',
    '</subagent_system>',
  ];
  return parts.filter((line, i, all) => !(line === '' && all[i - 1] === '')).join('\n');
}
