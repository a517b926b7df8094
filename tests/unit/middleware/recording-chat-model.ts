import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

import { abortableDelay } from '../../../src/models/abortable-delay';

/** One scripted answer: text (with optional tool calls) or a thrown error. */
export type ScriptStep =
  | {
      readonly content: string;
      readonly toolCalls?: readonly { readonly name: string; readonly args: Record<string, unknown> }[];
      /** Latency before answering; the call's abort signal interrupts it. */
      readonly delayMs?: number;
    }
  | { readonly error: unknown; readonly forever?: boolean };

/** What every bound copy of one model shares: the script and the requests it received. */
export interface ModelRecorder {
  readonly script: ScriptStep[];
  /** Every request, as the exact message list the model was sent (system message included). */
  readonly calls: BaseMessage[][];
}

/**
 * A minimal chat model for agent tests: answers from a script and RECORDS every request. `bindTools`
 * returns a new instance sharing the recorder (createAgent binds on every call and rejects a model
 * that keeps a `tools` array, FACTS §3). It fails loudly when the script runs out.
 */
export class RecordingChatModel extends BaseChatModel {
  readonly recorder: ModelRecorder;

  constructor(recorder: ModelRecorder) {
    super({});
    this.recorder = recorder;
  }

  /** A model answering `script` (strings are plain answers) and the list its requests go to. */
  static answering(script: readonly (ScriptStep | string)[]): { model: RecordingChatModel; calls: BaseMessage[][] } {
    const recorder: ModelRecorder = { script: script.map((s) => (typeof s === 'string' ? { content: s } : s)), calls: [] };
    return { model: new RecordingChatModel(recorder), calls: recorder.calls };
  }

  override _llmType(): string {
    return 'recording';
  }

  override bindTools(_tools: BindToolsInput[], _kwargs?: Partial<BaseChatModelCallOptions>): RecordingChatModel {
    return new RecordingChatModel(this.recorder);
  }

  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], _run?: CallbackManagerForLLMRun): Promise<ChatResult> {
    this.recorder.calls.push([...messages]);
    const n = this.recorder.calls.length;
    const step = this.recorder.script[0];
    if (step === undefined) throw new Error(`RecordingChatModel: script exhausted at call ${n}`);
    if ('error' in step) {
      if (step.forever !== true) this.recorder.script.shift();
      throw step.error;
    }
    this.recorder.script.shift();
    if (step.delayMs !== undefined) await abortableDelay(step.delayMs, options.signal);
    const toolCalls = (step.toolCalls ?? []).map((tc, i) => ({ type: 'tool_call' as const, id: `call_${n}_${i}`, name: tc.name, args: tc.args }));
    return { generations: [{ message: new AIMessage({ content: step.content, tool_calls: toolCalls }), text: step.content }] };
  }
}
