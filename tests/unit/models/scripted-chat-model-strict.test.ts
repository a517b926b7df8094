import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

import { classifyLlmError } from '../../../src/middleware';
import { isScriptedProviderError, type ScriptedProviderError } from '../../../src/models/errors';
import { parseScenario } from '../../../src/models/scenario';
import { ScriptedChatModel, type ModelRole } from '../../../src/models/scripted-chat-model';

const LEAD: ModelRole = { kind: 'lead' };
const scenario = parseScenario({ lead: [{ content: 't1' }, { content: 't2' }, { content: 't3' }] }, 'inline');

function model(options: { role?: ModelRole; strict?: boolean } = {}): ScriptedChatModel {
  return new ScriptedChatModel({
    scenario,
    role: options.role ?? LEAD,
    modelName: 'demo',
    ...(options.strict === undefined ? {} : { strict: options.strict }),
  });
}
const calls = (...ids: string[]): AIMessage =>
  new AIMessage({ content: '', tool_calls: ids.map((id) => ({ type: 'tool_call' as const, id, name: 'bash', args: {} })) });
const answer = (id: string): ToolMessage => new ToolMessage({ content: 'ok', tool_call_id: id });

async function text(m: ScriptedChatModel, messages: BaseMessage[]): Promise<string> {
  return (await m.invoke(messages)).text;
}
/** The 400 the model answers `messages` with. */
async function rejected(m: ScriptedChatModel, messages: BaseMessage[]): Promise<ScriptedProviderError> {
  try {
    await m.invoke(messages);
  } catch (err) {
    if (isScriptedProviderError(err)) return err;
    throw err;
  }
  throw new Error('expected the request to be rejected');
}

describe('ScriptedChatModel is strict like a provider', () => {
  it.each<[string, BaseMessage[], string]>([
    ['(a) a dangling tool call', [new HumanMessage('go'), calls('call_1')], "messages[1]: assistant tool call 'call_1' has no tool message after it"],
    [
      '(a) a tool message written after the next human message',
      [new HumanMessage('go'), calls('c1'), new HumanMessage('more'), answer('c1')],
      "messages[1]: assistant tool call 'c1' has no tool message after it",
    ],
    ['(b) a tool message without its call', [new HumanMessage('go'), answer('c9')], "messages[1]: tool message without its call (tool_call_id 'c9')"],
    [
      '(c) a tool-call id used twice',
      [new HumanMessage('go'), calls('c1'), answer('c1'), calls('c1'), answer('c1')],
      "messages[3]: duplicate tool call id 'c1' (also used in messages[1])",
    ],
    ['(c) an empty tool-call id', [new HumanMessage('go'), calls(''), answer('')], "messages[1]: assistant tool call #0 ('bash') has an empty id"],
    [
      '(d) a second system message',
      [new SystemMessage('a'), new HumanMessage('go'), new SystemMessage('b')],
      'messages[2]: more than one system message (the first is messages[0])',
    ],
    ['(d) a system message that is not first', [new HumanMessage('go'), new SystemMessage('a')], 'messages[1]: the system message must be the first message'],
    ['(e) nothing after the system message', [new SystemMessage('a')], 'messages[0]: the request has no message after the system message'],
    ['(e) an empty request', [], 'the request has no messages'],
  ])('rejects %s with a provider-style 400 and consumes no turn', async (_name, messages, detail) => {
    const m = model();
    const err = await rejected(m, messages);
    expect(err.message).toBe(`400 invalid request: ${detail}`);
    expect(err.status).toBe(400);
    expect(err.violation?.detail).toBe(detail);
    expect(m.position).toBeNull();
    // The first valid request still gets the first turn.
    expect(await text(m, [new HumanMessage('go')])).toBe('t1');
  });

  it('consumes no turn once the cursor is set either', async () => {
    const m = model();
    expect(await text(m, [new HumanMessage('go')])).toBe('t1');
    await rejected(m, [new HumanMessage('go'), new AIMessage('t1'), calls('c1')]);
    expect(m.position).toBe(1);
    expect(await text(m, [new HumanMessage('go'), new AIMessage('t1'), new HumanMessage({ content: 'more', name: 'note' })])).toBe('t2');
  });

  it('answers a well-formed request with tool rounds', async () => {
    const history = [new SystemMessage('sys'), new HumanMessage('go'), calls('c1', 'c2'), answer('c2'), answer('c1')];
    expect(await text(model(), history)).toBe('t2');
  });

  it('is a non-retryable error for the LLM error handling', async () => {
    const classified = classifyLlmError(await rejected(model(), [new HumanMessage('go'), calls('c1')]));
    expect(classified).toMatchObject({ status: 400, retryable: false });
  });

  it('checks the summarizer role too', async () => {
    const summarizer = model({ role: { kind: 'summarizer' } });
    const err = await rejected(summarizer, [new SystemMessage('summarize'), new SystemMessage('again')]);
    expect(err.message).toBe('400 invalid request: messages[1]: more than one system message (the first is messages[0])');
    expect(await text(summarizer, [new SystemMessage('summarize'), new HumanMessage('a\nb')])).toBe('(scripted summary of 2 transcript lines)');
  });

  it('is strict by default, and bindTools copies keep the setting', async () => {
    expect(model().strict).toBe(true);
    const lenient = model({ strict: false });
    expect(lenient.strict).toBe(false);
    expect(lenient.bindTools([]).strict).toBe(false);
    await rejected(model().bindTools([]), [new HumanMessage('go'), calls('c1')]);
  });

  it('lets a violating request through with strict: false', async () => {
    const lenient = model({ strict: false });
    // Position derives as usual: one AI message after the human message.
    expect(await text(lenient, [new HumanMessage('go'), calls('c1'), new SystemMessage('late')])).toBe('t2');
    expect(await text(lenient, [])).toBe('t3');
  });
});
