import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { z } from 'zod';
import { activeSkills } from '../active-skills';
import { durableContextMessages, renderDurableContextData } from '../durable-context';
import { SummaryStateSchema } from './summarization-middleware';

export const DURABLE_CONTEXT_MIDDLEWARE_NAME = 'DurableContextMiddleware';

const ActiveSkillSchema = z.object({ name: z.string(), path: z.string(), description: z.string().nullable().optional() });

/** `skill_context`: the skills the agent loaded, in load order; shared with the skill tool policy. */
export const SkillContextStateSchema = z.object({ skill_context: z.array(ActiveSkillSchema).default([]) });

// One instance for every chain: LangChain derives (and zod compiles) a parser per schema object.
const DurableContextStateSchema = SummaryStateSchema.extend(SkillContextStateSchema.shape);

/**
 * Durable context for a subagent (SPEC §6.5): `beforeModel` records the skills the agent loaded
 * (`skill_context`, kept in state so it survives history compaction), and every model request
 * gets them and the compaction summary (`summary_text`) back as hidden data behind the authority
 * contract. The contract is a SystemMessage
 * the coalescer folds into the single leading system message; nothing here is saved to messages.
 */
export function durableContextMiddleware() {
  return createMiddleware({
    name: DURABLE_CONTEXT_MIDDLEWARE_NAME,
    stateSchema: DurableContextStateSchema,
    beforeModel: (state) => {
      const known = new Set(state.skill_context.map((s) => s.path));
      const fresh = activeSkills(state.messages).filter((s) => !known.has(s.path));
      return fresh.length > 0 ? { skill_context: [...state.skill_context, ...fresh] } : undefined;
    },
    wrapModelCall: (request, handler) => {
      const specs = durableContextMessages(
        renderDurableContextData({ summaryText: request.state.summary_text, ledger: [], skillContext: request.state.skill_context }),
      );
      if (specs.length === 0) return handler(request);
      const injected = specs.map((m) =>
        m.role === 'system' ? new SystemMessage(m.content) : new HumanMessage({ content: m.content, additional_kwargs: { ...m.additional_kwargs } }),
      );
      return handler({ ...request, messages: [...injected, ...request.messages] });
    },
  });
}
