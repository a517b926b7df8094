import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';

/** One chat-model request as LangChain reported it to callbacks. */
export interface RecordedModelRequest {
  readonly tags: readonly string[];
  readonly messages: readonly BaseMessage[];
}

/**
 * Records every chat-model request through LangChain's real callback mechanism (the same path a
 * tracing handler takes), so tests can assert what the models were sent.
 */
export class ModelRequestRecorder extends BaseCallbackHandler {
  override name = 'model-request-recorder';
  readonly requests: RecordedModelRequest[] = [];

  override handleChatModelStart(
    _llm: Serialized,
    messages: BaseMessage[][],
    _runId: string,
    _parentRunId?: string,
    _extraParams?: Record<string, unknown>,
    tags?: string[],
  ): void {
    for (const batch of messages) this.requests.push({ tags: tags ?? [], messages: batch });
  }

  /** System prompts of the lead's requests, in order. */
  leadSystemPrompts(): string[] {
    return this.requests
      .filter((r) => r.tags.includes('lead'))
      .map((r) => r.messages.find((m) => m.type === 'system'))
      .map((m) => (m === undefined ? '' : typeof m.content === 'string' ? m.content : m.text));
  }
}
