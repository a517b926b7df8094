import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AppConfig } from '../config/schema';
import type { ModelRole } from '../models';
import type { Stores } from '../store';
import type { LlmRetryPolicy } from '../middleware';
import type { McpToolRegistry } from '../mcp';

/** What activities need, injected by the worker (and by tests). */
export interface ActivityDeps {
  readonly config: AppConfig;
  readonly stores: Stores;
  /** Builds a chat model by configured name, with `handlers` attached to it (after the worker's own). */
  readonly createModel: (modelName: string, role: ModelRole, handlers?: readonly BaseCallbackHandler[]) => BaseChatModel;
  /**
   * How many subagent executions wait for a slot right now (the `deerflow-subagents` backlog). The
   * worker's reader reuses a reading for a second from when it was asked for (`subagentBacklogReader`).
   */
  readonly subagentBacklog: () => Promise<number>;
  /** Clock for prompt dates; injectable for tests. */
  readonly now?: () => Date;
  /** Retries of the lead's model calls. @default DEFAULT_LLM_RETRY_POLICY (SPEC §6.8) */
  readonly llmRetryPolicy?: LlmRetryPolicy;
  /** This worker's MCP servers and their tools. @default none */
  readonly mcp?: McpToolRegistry;
}
