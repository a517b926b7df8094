import { escapeHtml } from './escape-html';

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
}

const BUILTIN_SUMMARIES: Readonly<Record<string, string>> = {
  'general-purpose':
    'bounded exploration or action with a clear delegation benefit: specialist capability, context isolation, or one independent non-overlapping part of parallel work.',
  bash:
    'bounded shell workflows whose logs would crowd your context or that can run in parallel. Routine git, build, test, or deploy operations are not sufficient reason to delegate.',
};

function listing(subagents: readonly ListedSubagent[]): string {
  return subagents
    .map((s) => {
      const summary = s.builtin
        ? (BUILTIN_SUMMARIES[s.name] ?? s.description)
        : escapeHtml((s.description.split('\n')[0] ?? '').trim());
      return `- **${s.name}**: ${summary}`;
    })
    .join('\n');
}

/**
 * The lead's `<subagent_system>` section (SPEC §7.1): delegation is an optimisation, the default is
 * direct execution, and the hard limits are the numbers the run enforces. With a per-response limit
 * of 1 every parallel and multi-batch element is left out.
 */
export function buildSubagentRoutingSection(options: RoutingSectionOptions): string {
  // Clamped like the limit logic, so the prompt can never advertise what the run does not enforce.
  const n = Math.max(1, Math.min(options.maxConcurrent, 64));
  const total = Math.max(1, Math.min(options.maxTotal, 50));
  const parallel = n > 1;
  const bash = options.subagents.some((s) => s.name === 'bash');
  const parts: string[] = [
    '<subagent_system>',
    '## Subagent Routing: Delegate Only for Clear Net Benefit',
    '',
    'Subagents are optional. Default to direct execution. Do not delegate merely because a task is complex, has many steps, produces verbose output, or touches a large repository.',
    '',
    '### DELEGATION CHECK (required before every `task` call)',
    parallel
      ? '- Expected benefit = parallel wall-clock savings + specialist capability + context isolation'
      : '- Expected benefit = specialist capability + context isolation',
    '- Expected cost = delegation and startup overhead + duplicate context and repository discovery + coordination and synthesis + state-conflict risk + side-effect risk',
    '- Delegate only when the expected benefit is clearly greater than the expected cost. When unsure, work directly.',
  ];
  if (parallel) {
    parts.push(
      '',
      '### Hard vetoes for parallel dispatch',
      '- Inter-agent dependencies: when one scope needs another scope\'s output, keep the chain together instead of splitting it.',
      '- Unsafe shared state: scopes that touch overlapping files, shared mutable state, or external side effects must not run in parallel unless each has disjoint ownership.',
      'A bounded sequential chain may still be delegated to one subagent when specialist capability or context isolation clearly wins.',
    );
  }
  parts.push(
    '',
    '### Delegation costs and negative signals',
    '- Duplicate discovery: a subagent starts with none of your context and may re-read what you already know.',
    '- Cheap direct path: if a few direct tool calls would do it, do them yourself.',
    '- Coordination burden: every delegated result must be checked and merged by you.',
    '- Clarify first: if the request is ambiguous, resolve that before delegating anything.',
    '',
    '### Valid benefits',
  );
  if (parallel) {
    parts.push(
      '- Parallel latency: independent, non-overlapping scopes finish sooner side by side.',
      '- Specialist capability: a subagent with tools, skills, a model or instructions you lack.',
      '- Context isolation: a bounded, context-heavy investigation whose details you do not need.',
      'Use the fewest subagents needed.',
    );
  } else {
    parts.push(
      '- Specialist capability: a subagent with tools, skills, a model or instructions you lack.',
      '- Context isolation: a bounded, context-heavy investigation whose details you do not need.',
      'With a per-response limit of 1, delegate only for material specialist or context-isolation benefit. Parallel dispatch cannot reduce wall-clock latency in this configuration.',
    );
  }
  parts.push(
    '',
    '### HARD LIMITS - NON-NEGOTIABLE',
    `- MAXIMUM ${n} \`task\` CALLS PER RESPONSE - NEVER emit more. VIOLATION IS A HARD ERROR. Excess calls are discarded and their work is lost.`,
    `- MAXIMUM ${total} \`task\` CALLS PER RUN - NEVER exceed it. VIOLATION IS A HARD ERROR. Only delegations of the current request count; earlier runs in this thread do not use up this allowance.`,
    parallel
      ? '- Never start a batch that would exceed either limit; when the allowance is used up, synthesize what you have and finish the rest directly.'
      : '- When the allowance is used up, verify and synthesize what you have, or continue directly.',
    '',
    '### After each delegation',
  );
  if (parallel) {
    parts.push(
      'Re-evaluate the remaining work after every batch. Later batches cannot overlap earlier batches, but can still deliver material within-batch parallel savings.',
    );
  } else {
    parts.push('Re-evaluate the remaining work after each result. Do not chain delegations to work around the limit.');
  }
  parts.push(
    '',
    '### Available Subagents',
    listing(options.subagents),
    '',
    '### Workflow',
    '1. Find the cheapest direct path first.',
    parallel ? '2. Check the hard vetoes and negative signals.' : '2. Check the negative signals.',
    '3. Compare expected benefit and cost.',
    '4. Give each subagent a bounded, non-overlapping scope with the context it needs, the output you expect, and which side effects it owns.',
    parallel
      ? `5. Launch the smallest useful batch: at most ${n} calls, and never more than the remaining run allowance.`
      : '5. Launch at most 1 call, and only within the remaining run allowance.',
    '6. Verify and synthesize the results, resolving contradictions against primary evidence.',
    '',
    '### Examples',
    '- Refactoring a module and updating its tests: do it directly.',
  );
  if (parallel) {
    parts.push('- Compare independent providers: one read-only subagent per provider in one batch can save real time.');
  }
  parts.push('- A specialized subagent only when its capability materially changes the result.');
  if (!parallel) parts.push('- A context-heavy investigation whose details you do not need may go to one subagent.');
  parts.push('- Routine test, build or git commands: run them directly.');
  if (parallel) {
    parts.push(
      '',
      `Multi-batch example (limit ${n}):`,
      `- Batch 1: launch up to ${n} independent scopes.`,
      '- Wait for the batch, then re-evaluate what is left.',
      '- Batch 2: launch only scopes that still pay off and do not overlap batch 1.',
      '- Synthesize all retained results.',
    );
  }
  parts.push(
    '',
    bash
      ? 'Otherwise execute directly with the available tools (bash, ls, read_file, web_search, etc.), e.g. `bash("npm test")`.'
      : 'Otherwise execute directly with the available tools (ls, read_file, web_search, etc.), e.g. `read_file("/mnt/user-data/workspace/README.md")`.',
    'The `task` tool waits for the subagent and returns its result directly; no polling is needed.',
    '</subagent_system>',
  );
  return parts.filter((line, i, all) => !(line === '' && all[i - 1] === '')).join('\n');
}
