import { z } from 'zod';
import { LEAD_TOOL_NAMES } from './tool-names';

/** Names of agents: they appear in prompts, ids and CLI arguments. */
export const AgentNameSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be 1-64 lowercase letters, digits, "-" or "_", starting with a letter or digit');

const text = z.string().trim().min(1, 'must not be empty');
const toolList = z.array(text).max(200);

/**
 * A subagent definition an administrator creates at run time (SPEC §1.4 "managed definitions").
 * Same fields and defaults as `subagents.custom_agents.<name>` in config.yaml.
 */
export const ManagedSubagentInputSchema = z.strictObject({
  name: AgentNameSchema,
  description: text.max(4000),
  system_prompt: text.max(100_000),
  tools: toolList.nullable().default(null),
  disallowed_tools: toolList.default(['task', 'ask_clarification', 'present_files']),
  skills: z.array(text).nullable().default(null),
  model: text.default('inherit'),
  max_turns: z.number().int().min(1).max(10_000).default(50),
  timeout_seconds: z.number().int().min(1).max(86_400).default(900),
  enabled: z.boolean().default(true),
});
export type ManagedSubagentInput = z.input<typeof ManagedSubagentInputSchema>;

/** A stored managed subagent definition. */
export const ManagedSubagentSchema = ManagedSubagentInputSchema.extend({
  created_at: z.string(),
  updated_at: z.string(),
});
export type ManagedSubagent = z.infer<typeof ManagedSubagentSchema>;

/** A lead agent definition stored at run time (same fields as `agents.<name>` in config.yaml). */
export const ManagedLeadAgentInputSchema = z.strictObject({
  name: AgentNameSchema,
  description: z.string().max(4000).default(''),
  system_prompt: z.string().max(100_000).nullable().default(null),
  model: text.nullable().default(null),
  /** null = every subagent, [] = delegation off, list = allowlist. */
  allowed_subagents: z.array(AgentNameSchema).nullable().default(null),
  /** Skills this lead's subagents may use: null = all, [] = none, list = allowlist. */
  skills: z.array(text).nullable().default(null),
  max_turns: z.number().int().min(1).max(10_000).default(50),
  /** The lead's own tools: null = all it may have, list = only these. */
  tools: z.array(z.enum(LEAD_TOOL_NAMES)).nullable().default(null),
  /** How long a run waits for the answer to its `ask_clarification` question. */
  clarification_timeout_seconds: z.number().int().min(1).max(30 * 86_400).default(86_400),
});
export type ManagedLeadAgentInput = z.input<typeof ManagedLeadAgentInputSchema>;

export const ManagedLeadAgentSchema = ManagedLeadAgentInputSchema.extend({
  created_at: z.string(),
  updated_at: z.string(),
});
export type ManagedLeadAgent = z.infer<typeof ManagedLeadAgentSchema>;
