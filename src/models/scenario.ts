import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

import { zodIssueLines } from '../contracts/format-zod-issues';
import { ScenarioInvalidError } from './errors';

/**
 * Scenario files of the `scripted` model (shared/docs/SCRIPTED_MODEL.md, a public contract).
 * Every object is strict so a typo in a field name fails loudly instead of being ignored.
 */

const REPEAT_MESSAGE = 'must be a positive integer or "forever"';
const COUNT_MESSAGE = 'must be a non-negative integer';
const tokenCount = z.number({ error: COUNT_MESSAGE }).int({ error: COUNT_MESSAGE }).min(0, { error: COUNT_MESSAGE });

/** `{ input_tokens, output_tokens, total_tokens? }`; `total_tokens` defaults to input + output. */
export const ScenarioUsageSchema = z
  .strictObject({ input_tokens: tokenCount, output_tokens: tokenCount, total_tokens: tokenCount.optional() })
  .transform((u) => ({
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    total_tokens: u.total_tokens ?? u.input_tokens + u.output_tokens,
  }));
/** Parsed usage of a turn (total always present). */
export type ScenarioUsage = z.output<typeof ScenarioUsageSchema>;

/** One scripted tool call; `args` defaults to `{}` and `id` is generated when absent. */
export const ScenarioToolCallSchema = z.strictObject({
  name: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  args: z.record(z.string(), z.unknown(), { error: 'must be an object' }).default({}),
  id: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }).optional(),
});
/** Parsed tool call of a turn. */
export type ScenarioToolCall = z.output<typeof ScenarioToolCallSchema>;

const RepeatSchema = z.union(
  [
    z.number({ error: REPEAT_MESSAGE }).int({ error: REPEAT_MESSAGE }).min(1, { error: REPEAT_MESSAGE }),
    z.literal('forever', { error: REPEAT_MESSAGE }),
  ],
  { error: REPEAT_MESSAGE },
);

/** One model response. At least one of `content`, `tool_calls` or `error` must be present. */
export const ScenarioTurnSchema = z
  .strictObject({
    content: z.string({ error: 'must be a string' }).optional(),
    tool_calls: z.array(ScenarioToolCallSchema, { error: 'must be a list' }).optional(),
    usage: ScenarioUsageSchema.optional(),
    delay_ms: z.number({ error: COUNT_MESSAGE }).int({ error: COUNT_MESSAGE }).min(0, { error: COUNT_MESSAGE }).optional(),
    error: z.string({ error: 'must be a string' }).min(1, { error: 'must be a non-empty string' }).optional(),
    repeat: RepeatSchema.optional(),
    /** The provider's finish reason (default `tool_calls` or `stop`), e.g. `length` or `content_filter`. */
    finish_reason: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }).optional(),
  })
  .refine((t) => t.content !== undefined || t.tool_calls !== undefined || t.error !== undefined, {
    error: 'a turn needs at least one of content, tool_calls or error',
  });
/** A parsed scenario turn. */
export type ScenarioTurn = z.output<typeof ScenarioTurnSchema>;

const TurnListSchema = z.array(ScenarioTurnSchema, { error: 'must be a list of turns' });

/** A subagent rule: `match` is a substring, `"/regex/flags"`, or `"*"`. */
export const SubagentRuleSchema = z.strictObject({
  match: z
    .string({ error: 'must be a non-empty string' })
    .min(1, { error: 'must be a non-empty string' })
    .refine((m) => compileMatcher(m) !== undefined, { error: 'is not a valid regular expression' }),
  /** Only this execution attempt of a task (1-based) matches: scripts a failure that a retry survives. */
  attempt: z.number({ error: 'must be a positive integer' }).int({ error: 'must be a positive integer' }).min(1, { error: 'must be a positive integer' }).optional(),
  turns: TurnListSchema,
});
/** A parsed subagent rule. */
export type SubagentRule = z.output<typeof SubagentRuleSchema>;

/** The whole scenario file. Both lists are optional; a missing list answers `(script exhausted)`. */
export const ScenarioSchema = z.strictObject(
  {
    lead: TurnListSchema.optional(),
    subagents: z.array(SubagentRuleSchema, { error: 'must be a list of rules' }).optional(),
    /** The compaction summarizer: its answers are generated, only the usage it reports is scripted. */
    summarizer: z.strictObject({ usage: ScenarioUsageSchema.optional() }).optional(),
  },
  { error: 'must be an object with "lead", "subagents" and/or "summarizer"' },
);
/** A parsed scenario. */
export type Scenario = z.output<typeof ScenarioSchema>;

const REGEX_FORM = /^\/(.+)\/([dgimsuvy]*)$/;

/** Returns a predicate for `match`, or undefined when it is a malformed `/regex/`. */
function compileMatcher(match: string): ((text: string) => boolean) | undefined {
  if (match === '*') return () => true;
  const rx = REGEX_FORM.exec(match);
  if (rx === null) return (text) => text.includes(match);
  const [, source = '', rawFlags = ''] = rx;
  // `g` and `y` make RegExp#test stateful (lastIndex), which would make matching order-dependent.
  const flags = rawFlags.replace(/[gy]/g, '');
  try {
    const re = new RegExp(source, flags);
    return (text) => re.test(text);
  } catch {
    return undefined;
  }
}

/**
 * True when a rule's `match` selects `taskPrompt`: `"*"` matches everything, `"/source/flags"` is a
 * regular expression, anything else is a plain substring.
 */
export function ruleMatches(match: string, taskPrompt: string): boolean {
  return compileMatcher(match)?.(taskPrompt) ?? false;
}

/**
 * The turns of the first rule whose `match` selects `taskPrompt` (and whose `attempt`, if set, is
 * this execution attempt); `[]` when none does.
 */
export function selectSubagentTurns(scenario: Scenario, taskPrompt: string, attempt = 1): readonly ScenarioTurn[] {
  const rule = scenario.subagents?.find((r) => (r.attempt === undefined || r.attempt === attempt) && ruleMatches(r.match, taskPrompt));
  return rule?.turns ?? [];
}

// Parsed scenarios are cached and shared by every model instance, so nobody may mutate them.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validates an already-parsed document. `file` only labels error messages.
 * @throws {@link ScenarioInvalidError} naming the file and each failing field path.
 */
export function parseScenario(document: unknown, file: string): Scenario {
  // An empty file parses to null: treat it as a scenario with no turns.
  const result = ScenarioSchema.safeParse(document ?? {});
  if (result.success) return deepFreeze(result.data);
  const issues = zodIssueLines(result.error.issues, '(root)', (keys) => `unknown field${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')}`);
  throw new ScenarioInvalidError(file, issues, `scenario ${file}: ${issues.join('; ')}`);
}

/**
 * Reads and validates a scenario file (YAML or JSON; JSON is parsed by the YAML parser).
 * @param path - file path; error messages name it as given
 * @throws {@link ScenarioInvalidError} when the file is unreadable, not YAML/JSON, or invalid.
 */
export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ScenarioInvalidError(path, [], `scenario ${path}: cannot read file: ${reason}`, { cause: err });
  }
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ScenarioInvalidError(path, [], `scenario ${path}: not valid YAML or JSON: ${reason}`, { cause: err });
  }
  return parseScenario(document, path);
}

const cache = new Map<string, { stamp: string; scenario: Scenario }>();

/**
 * {@link loadScenario} with a per-process cache keyed by absolute path, invalidated when the file's
 * mtime or size changes, so each activity building a fresh model does not re-parse the file.
 * @throws {@link ScenarioInvalidError} as {@link loadScenario}.
 */
export function loadScenarioCached(path: string): Scenario {
  const abs = resolve(path);
  let stamp: string;
  try {
    const st = statSync(abs);
    stamp = `${st.mtimeMs}:${st.size}`;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ScenarioInvalidError(abs, [], `scenario ${abs}: cannot read file: ${reason}`, { cause: err });
  }
  const hit = cache.get(abs);
  if (hit?.stamp === stamp) return hit.scenario;
  const scenario = loadScenario(abs);
  cache.set(abs, { stamp, scenario });
  return scenario;
}

/** Empties the scenario cache (tests). @internal */
export function clearScenarioCache(): void {
  cache.clear();
}
