import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { z } from 'zod';
import { activeSkills } from '../active-skills';
import { durableContextMessages, renderDurableContextData, type ActiveSkill } from '../durable-context';
import { SummaryStateSchema } from './summarization-middleware';

export const DURABLE_CONTEXT_MIDDLEWARE_NAME = 'DurableContextMiddleware';

const ActiveSkillSchema = z.object({ name: z.string(), path: z.string(), description: z.string().nullable().optional() });

/** `skill_context`: the skills the agent loaded, in load order; shared with the skill tool policy. */
export const SkillContextStateSchema = z.object({ skill_context: z.array(ActiveSkillSchema).default([]) });

// One instance for every chain: LangChain derives (and zod compiles) a parser per schema object.
const DurableContextStateSchema = SummaryStateSchema.extend(SkillContextStateSchema.shape);

/** The skills the agent loaded: those recorded in state (absent: none), then any read since, in load order. */
function loadedSkills(state: { skill_context?: ActiveSkill[]; messages: Parameters<typeof activeSkills>[0] }): ActiveSkill[] {
  const recorded = state.skill_context ?? [];
  const known = new Set(recorded.map((s) => s.path));
  return [...recorded, ...activeSkills(state.messages).filter((s) => !known.has(s.path))];
}

export interface DurableContextMiddlewareOptions {
  /**
   * Record the skills the agent loaded in state (`skill_context`) before each model call, so they
   * survive a compaction that drops the reads. Without compaction every read stays in the messages,
   * and each request takes them from there: no `beforeModel` hook, one graph step fewer per turn,
   * and no state keys (`skill_context`, `summary_text`: nothing writes them). A wrap hook with a
   * state schema costs a zod parser compiled per model call: LangChain derives a new partial schema
   * of it for every call.
   * @default true
   */
  readonly recordSkills?: boolean;
}

/**
 * Durable context for a subagent (SPEC §6.5): every model request gets the skills the agent loaded
 * (kept in state as `skill_context` when `recordSkills`, so they survive history compaction) and
 * the compaction summary (`summary_text`) back as hidden data behind the authority contract. The
 * contract is a SystemMessage the coalescer folds into the single leading system message; nothing
 * here is saved to messages.
 */
export function durableContextMiddleware(options: DurableContextMiddlewareOptions = {}) {
  const recordSkills = options.recordSkills ?? true;
  return createMiddleware({
    name: DURABLE_CONTEXT_MIDDLEWARE_NAME,
    ...(recordSkills
      ? {
          stateSchema: DurableContextStateSchema,
          beforeModel: (state: z.infer<typeof DurableContextStateSchema> & { messages: Parameters<typeof activeSkills>[0] }) => {
            const loaded = loadedSkills(state);
            return loaded.length > state.skill_context.length ? { skill_context: loaded } : undefined;
          },
        }
      : {}),
    wrapModelCall: (request, handler) => {
      // Without the state keys (recordSkills off), there is no summary and no recorded skill.
      const state = request.state as { summary_text?: string; skill_context?: ActiveSkill[]; messages: Parameters<typeof activeSkills>[0] };
      const specs = durableContextMessages(
        renderDurableContextData({ summaryText: state.summary_text, ledger: [], skillContext: loadedSkills(state) }),
      );
      if (specs.length === 0) return handler(request);
      const injected = specs.map((m) =>
        m.role === 'system' ? new SystemMessage(m.content) : new HumanMessage({ content: m.content, additional_kwargs: { ...m.additional_kwargs } }),
      );
      return handler({ ...request, messages: [...injected, ...request.messages] });
    },
  });
}
