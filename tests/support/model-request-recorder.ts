import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import type { BaseMessage } from '@langchain/core/messages';

/** One chat-model request as LangChain reported it to callbacks. */
export interface RecordedModelRequest {
  readonly tags: readonly string[];
  readonly messages: readonly BaseMessage[];
  /** Tools bound to the model, as its invocation params reported them. */
  readonly tools: readonly unknown[];
}

/** When one chat-model call started and ended (ms since epoch). */
export interface ModelCallSpan {
  readonly tags: readonly string[];
  readonly start: number;
  end: number;
}

/**
 * Records every chat-model request through LangChain's real callback mechanism (the same path a
 * tracing handler takes), so tests can assert what the models were sent.
 */
export class ModelRequestRecorder extends BaseCallbackHandler {
  override name = 'model-request-recorder';
  readonly requests: RecordedModelRequest[] = [];
  readonly spans: ModelCallSpan[] = [];
  private readonly open = new Map<string, ModelCallSpan>();

  override handleChatModelStart(
    _llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    _parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
  ): void {
    const params = extraParams?.['invocation_params'] as { tools?: unknown[] } | undefined;
    for (const batch of messages) this.requests.push({ tags: tags ?? [], messages: batch, tools: params?.tools ?? [] });
    const span = { tags: tags ?? [], start: Date.now(), end: Number.POSITIVE_INFINITY };
    this.spans.push(span);
    this.open.set(runId, span);
  }

  override handleLLMEnd(_output: unknown, runId: string): void {
    this.close(runId);
  }

  override handleLLMError(_err: unknown, runId: string): void {
    this.close(runId);
  }

  private close(runId: string): void {
    const span = this.open.get(runId);
    if (span) span.end = Date.now();
    this.open.delete(runId);
  }

  /** System prompts of the lead's requests, in order. */
  leadSystemPrompts(): string[] {
    return this.requests
      .filter((r) => r.tags.includes('lead'))
      .map((r) => r.messages.find((m) => m.type === 'system'))
      .map((m) => (m === undefined ? '' : typeof m.content === 'string' ? m.content : m.text));
  }
}
