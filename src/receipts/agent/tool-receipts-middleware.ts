import { ToolMessage, type MessageContent } from '@langchain/core/messages';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { TOOL_ERROR_HANDLING_MIDDLEWARE_NAME } from '../../middleware/agent/tool-error-handling-middleware';
import { numberToolCalls, readReceiptMessages, RECEIPT_ID_KWARG, renderReceiptNote } from '../ledger';
import { receiptId } from '../../prompts/receipt-citation';

/** Name the tool receipts middleware registers under. */
export const TOOL_RECEIPTS_MIDDLEWARE_NAME = 'ToolReceiptsMiddleware';

function appendNote(content: MessageContent, note: string): MessageContent {
  if (typeof content === 'string') return content === '' ? note : `${content}\n\n${note}`;
  return [...content, { type: 'text', text: note }];
}

/**
 * Shows the model the receipt id of every tool result it gets (SPEC Appendix C.4): the result's
 * content gains one "Tool receipts ledger" line (`r3 = write_file (ok). Cite it as [r3 write_file].`)
 * and `additional_kwargs.receipt_id`. The id is the call's position among the run's tool calls, as
 * `numberToolCalls` computes it from the state the tool runs in, so the ledger harvested after the
 * run gives every call the id the model was shown. The stamp keeps ids stable across compaction.
 *
 * One line per result rather than a whole ledger block per request: it costs constant tokens per
 * call, is written once into history (no per-request rewriting), and sits next to the output it
 * attests. Commands and unnumbered results (malformed state) pass through untouched.
 */
export function toolReceiptsMiddleware() {
  return createMiddleware({
    name: TOOL_RECEIPTS_MIDDLEWARE_NAME,
    wrapToolCall: async (request, handler) => {
      const result = await handler(request);
      if (!ToolMessage.isInstance(result)) return result;
      const callId = request.toolCall.id;
      const messages = readReceiptMessages(request.state.messages);
      const number = callId && messages ? numberToolCalls(messages)?.get(callId) : undefined;
      if (number === undefined) return result;
      const outcome = result.status === 'error' ? 'error' : 'ok';
      return new ToolMessage({
        id: result.id,
        name: result.name,
        tool_call_id: result.tool_call_id,
        status: result.status,
        artifact: result.artifact as unknown,
        content: appendNote(result.content, renderReceiptNote(number, request.toolCall.name, outcome)),
        response_metadata: result.response_metadata,
        additional_kwargs: { ...result.additional_kwargs, [RECEIPT_ID_KWARG]: receiptId(number) },
      });
    },
  });
}

/**
 * The chain with the receipts middleware immediately outside the tool error handler, so a tool
 * that throws is receipted as the `error` result the model sees (wrapToolCall is an onion, the
 * first-registered outermost). Without a tool error handler it goes first.
 */
export function withToolReceipts(chain: readonly AgentMiddleware[]): AgentMiddleware[] {
  const at = chain.findIndex((m) => m.name === TOOL_ERROR_HANDLING_MIDDLEWARE_NAME);
  const receipts = toolReceiptsMiddleware() as AgentMiddleware;
  return at < 0 ? [receipts, ...chain] : [...chain.slice(0, at), receipts, ...chain.slice(at)];
}
