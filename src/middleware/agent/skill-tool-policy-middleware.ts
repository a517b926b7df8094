import { ToolMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { z } from 'zod';

import { activeSkills } from '../active-skills';
import { isToolAllowedBySkills, skillToolPolicy, skillToolRefusal, type SkillToolPolicy, type SkillToolRule } from '../skill-tool-policy';
import { SkillContextStateSchema } from './durable-context-middleware';
import { requestToolName } from './request-tool-name';

/** Name the skill tool policy middleware registers under. */
export const SKILL_TOOL_POLICY_MIDDLEWARE_NAME = 'SkillToolPolicyMiddleware';

const OptionsSchema = z
  .object({
    // Other keys of a skill (`SkillMetadata` passes through as is) are dropped.
    skills: z.array(z.object({ name: z.string(), allowedTools: z.array(z.string()).nullable() })).default([]),
    recordedSkills: z.boolean().default(true),
  })
  .strict();

/** Options of {@link skillToolPolicyMiddleware}. */
export interface SkillToolPolicyMiddlewareOptions {
  /** The skills the agent may load, with their `allowed_tools`. @default [] */
  readonly skills?: readonly SkillToolRule[];
  /**
   * Read the skills the durable context records in state (`skill_context`, when summarization is
   * on). Off, the active skills are the reads in the messages alone and the middleware declares no
   * state: LangChain compiles a zod parser of a wrap hook's state schema for every call.
   * @default true
   */
  readonly recordedSkills?: boolean;
}

/** What the policy reads of the agent state. */
interface PolicyState {
  /** Absent without `recordedSkills`. */
  readonly skill_context?: readonly { readonly name: string }[];
  readonly messages: Parameters<typeof activeSkills>[0];
}

/**
 * Enforces the active skills' `allowed_tools` (see `../skill-tool-policy` for the rule): every
 * model request loses the tools the policy omits, and a call to one (a stale or made-up call)
 * is answered with an error ToolMessage naming the tool and the skills instead of running.
 *
 * Active skills are those the durable context tracks: `skill_context` (kept in state, so it
 * survives compaction) plus every SKILL.md read still in the messages. The messages are read here
 * too because the tool calls of one model turn run before the next `beforeModel` records a skill
 * read in that same turn. Tools are matched by name only, so built-in and MCP tools are treated alike.
 * Register it inside the tool error handler (so receipts see the refusal as an `error` result).
 * @throws ZodError for unknown or ill-typed options
 */
export function skillToolPolicyMiddleware(options: SkillToolPolicyMiddlewareOptions = {}) {
  const { skills, recordedSkills } = OptionsSchema.parse(options);
  const policyOf = (state: PolicyState): SkillToolPolicy => skillToolPolicy([...(state.skill_context ?? []), ...activeSkills(state.messages)], skills);
  return createMiddleware({
    name: SKILL_TOOL_POLICY_MIDDLEWARE_NAME,
    ...(recordedSkills ? { stateSchema: SkillContextStateSchema } : {}),
    wrapModelCall: (request, handler) => {
      const policy = policyOf(request.state);
      if (policy.allowed === null) return handler(request);
      const tools = request.tools.filter((tool) => {
        const name = requestToolName(tool);
        return name === null || isToolAllowedBySkills(policy, name);
      });
      return handler(tools.length === request.tools.length ? request : { ...request, tools });
    },
    wrapToolCall: (request, handler) => {
      const policy = policyOf(request.state);
      const name = request.toolCall.name;
      if (isToolAllowedBySkills(policy, name)) return handler(request);
      return new ToolMessage({ content: skillToolRefusal(policy, name), tool_call_id: request.toolCall.id ?? '', name, status: 'error' });
    },
  });
}
