import type { z } from 'zod';
import {
  ManagedLeadAgentInputSchema,
  ManagedLeadAgentSchema,
  ManagedSubagentInputSchema,
  ManagedSubagentSchema,
  type ManagedLeadAgent,
  type ManagedSubagent,
} from '../contracts/agent-definitions';
import { AgentDefinitionError, type AgentDefinitionKind } from './errors';
import { storeIssueLines } from './store-issue-lines';

/** A validated subagent input with defaults applied: what a backend stores. @internal */
export type SubagentDefinition = z.output<typeof ManagedSubagentInputSchema>;
/** A validated lead agent input with defaults applied: what a backend stores. @internal */
export type LeadAgentDefinition = z.output<typeof ManagedLeadAgentInputSchema>;

// Messages that name the limit plainly (`max_turns: must be >= 1`); messages written into the
// contract schemas themselves take precedence over this map.
function issueText(iss: z.core.$ZodRawIssue): string | undefined {
  switch (iss.code) {
    case 'too_small':
    case 'too_big': {
      const limit = iss.code === 'too_small' ? iss.minimum : iss.maximum;
      const word = iss.code === 'too_small' ? 'least' : 'most';
      if (iss.origin === 'string') return `must be at ${word} ${limit} characters`;
      if (iss.origin === 'array') return `must have at ${word} ${limit} items`;
      const op = iss.code === 'too_small' ? '>' : '<';
      return `must be ${op}${iss.inclusive === false ? '' : '='} ${limit}`;
    }
    case 'invalid_type':
      if (iss.input === undefined) return 'is required';
      return iss.expected === 'int' ? 'must be an integer' : `must be ${iss.expected === 'array' || iss.expected === 'object' ? 'an' : 'a'} ${iss.expected}`;
    default:
      return undefined;
  }
}

function nameOf(input: unknown): string | null {
  const name = typeof input === 'object' && input !== null ? (input as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name.trim() : null;
}

function parseInput<S extends z.ZodType>(schema: S, kind: AgentDefinitionKind, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input, { error: issueText });
  if (!parsed.success) throw AgentDefinitionError.invalid(kind, nameOf(input), storeIssueLines(parsed.error), parsed.error);
  return parsed.data;
}

/**
 * Validates a subagent input against `ManagedSubagentInputSchema` (defaults applied).
 * @throws AgentDefinitionError `invalid`, one `field: problem` issue per problem
 * @internal
 */
export function parseSubagentInput(input: unknown): SubagentDefinition {
  return parseInput(ManagedSubagentInputSchema, 'subagent', input);
}

/**
 * Validates a lead agent input against `ManagedLeadAgentInputSchema` (defaults applied).
 * @throws AgentDefinitionError `invalid`
 * @internal
 */
export function parseLeadAgentInput(input: unknown): LeadAgentDefinition {
  return parseInput(ManagedLeadAgentInputSchema, 'lead agent', input);
}

/** A stored row as both backends read it back; `definition` is the stored JSON object. @internal */
export interface DefinitionRow {
  readonly name: string;
  readonly definition: unknown;
  readonly createdAt: string;
  readonly updatedAt: string;
}

// Rows go back through the schema so a field added to the contract later gets its default when an
// older row is read.
function withTimes(row: DefinitionRow): Record<string, unknown> {
  return { ...(row.definition as Record<string, unknown>), name: row.name, created_at: row.createdAt, updated_at: row.updatedAt };
}

/** @internal */
export function toManagedSubagent(row: DefinitionRow): ManagedSubagent {
  return ManagedSubagentSchema.parse(withTimes(row));
}

/** @internal */
export function toManagedLeadAgent(row: DefinitionRow): ManagedLeadAgent {
  return ManagedLeadAgentSchema.parse(withTimes(row));
}
