import type { Sha256 } from '../middleware';
import { formatReceiptCitation, receiptId } from '../prompts/receipt-citation';
import { canonicalJson } from './canonical-json';

/** Most receipts a ledger snapshot keeps (the most recent ones). */
export const MAX_LEDGER_RECEIPTS = 200;
/** `additional_kwargs` key on a subagent ToolMessage holding the receipt id it was shown as. */
export const RECEIPT_ID_KWARG = 'receipt_id';

/** How a receipted tool call ended. */
export type ReceiptOutcome = 'ok' | 'error';

/** One tool call that got a result (SPEC Appendix C.4): what a report may cite. */
export interface Receipt {
  /** `r1`, `r2`, …: the call's 1-based position among the run's tool calls. */
  readonly id: string;
  readonly tool_name: string;
  /** sha256 of the canonical JSON of the call's arguments. */
  readonly args_sha256: string;
  /** `error` when the ToolMessage has `status: "error"`. */
  readonly outcome: ReceiptOutcome;
  readonly tool_call_id: string;
}

/** A tool call as the ledger reads it (LangChain's `ToolCall` fits). */
export interface ReceiptToolCall {
  readonly id?: string | null;
  readonly name?: string;
  readonly args?: unknown;
}

/**
 * A transcript message as the ledger reads it: plain objects and LangChain message instances both
 * fit. Only `ai` tool calls and `tool` results matter; content is never read.
 */
export interface ReceiptMessage {
  readonly type: string;
  readonly tool_calls?: readonly ReceiptToolCall[] | null;
  readonly tool_call_id?: string | null;
  readonly status?: string | null;
  readonly additional_kwargs?: Readonly<Record<string, unknown>> | null;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value as a message list, or null when it is not one (not an array, an entry without a
 * string `type`, `tool_calls` that is not an array of objects): a malformed snapshot.
 */
export function readReceiptMessages(value: unknown): ReceiptMessage[] | null {
  if (!Array.isArray(value)) return null;
  const messages: ReceiptMessage[] = [];
  for (const item of value as unknown[]) {
    if (!isRecord(item) || typeof item['type'] !== 'string') return null;
    const calls = item['tool_calls'];
    if (calls !== undefined && calls !== null && (!Array.isArray(calls) || !(calls as unknown[]).every(isRecord))) return null;
    messages.push(item as unknown as ReceiptMessage);
  }
  return messages;
}

/** The number of a receipt id (`r12` → 12), or null when the text is not one. */
export function parseReceiptNumber(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^r([1-9]\d*)$/.exec(value);
  return match ? Number(match[1]) : null;
}

/**
 * Receipt numbers of every tool call in the transcript: its 1-based position among all tool calls
 * of assistant messages, in call order (a call keeps its first position if its id repeats).
 * Compaction removes older messages, so positions restart; the numbers stamped on surviving tool
 * results (`RECEIPT_ID_KWARG`) give the offset that keeps ids stable. Null when stamps are not
 * valid receipt ids or disagree with each other (a malformed transcript: nothing can be trusted).
 */
export function numberToolCalls(messages: readonly ReceiptMessage[]): Map<string, number> | null {
  const positions = new Map<string, number>();
  let position = 0;
  for (const message of messages) {
    if (message.type !== 'ai') continue;
    for (const call of message.tool_calls ?? []) {
      position += 1;
      if (typeof call.id === 'string' && call.id !== '' && !positions.has(call.id)) positions.set(call.id, position);
    }
  }
  let offset: number | null = null;
  for (const message of messages) {
    if (message.type !== 'tool') continue;
    const stamp = message.additional_kwargs?.[RECEIPT_ID_KWARG];
    if (stamp === undefined) continue;
    const stamped = parseReceiptNumber(stamp);
    if (stamped === null) return null;
    const at = typeof message.tool_call_id === 'string' ? positions.get(message.tool_call_id) : undefined;
    if (at === undefined) continue;
    const implied = stamped - at;
    if (implied < 0 || (offset !== null && offset !== implied)) return null;
    offset = implied;
  }
  const shift = offset ?? 0;
  return new Map([...positions].map(([id, at]) => [id, at + shift]));
}

/** The last `MAX_LEDGER_RECEIPTS` receipts: a bounded snapshot keeps the most recent evidence. */
export function boundLedger(receipts: readonly Receipt[], max: number = MAX_LEDGER_RECEIPTS): Receipt[] {
  return receipts.length > max ? receipts.slice(receipts.length - max) : [...receipts];
}

/**
 * The ledger of one transcript: every tool call that got a ToolMessage, in call order, bounded.
 * The first ToolMessage of a call decides its outcome. Null for a malformed transcript.
 */
export function harvestReceipts(messages: unknown, sha256: Sha256): Receipt[] | null {
  const list = readReceiptMessages(messages);
  const numbers = list === null ? null : numberToolCalls(list);
  if (list === null || numbers === null) return null;
  const results = new Map<string, ReceiptMessage>();
  for (const message of list) {
    if (message.type === 'tool' && typeof message.tool_call_id === 'string' && !results.has(message.tool_call_id)) {
      results.set(message.tool_call_id, message);
    }
  }
  const receipts: Receipt[] = [];
  const seen = new Set<string>();
  for (const message of list) {
    if (message.type !== 'ai') continue;
    for (const call of message.tool_calls ?? []) {
      const callId = typeof call.id === 'string' ? call.id : '';
      const result = results.get(callId);
      const number = numbers.get(callId);
      if (result === undefined || number === undefined || seen.has(callId)) continue;
      seen.add(callId);
      receipts.push({
        id: receiptId(number),
        tool_name: typeof call.name === 'string' ? call.name : '',
        args_sha256: sha256(canonicalJson(call.args ?? {})),
        outcome: result.status === 'error' ? 'error' : 'ok',
        tool_call_id: callId,
      });
    }
  }
  return boundLedger(receipts);
}

/**
 * Adds a later harvest to the ledger kept so far (compaction may have removed older results from
 * the later transcript, so nothing is dropped): known calls keep their first receipt, new ones are
 * added, ordered by receipt number, bounded. Null when one id names two different calls: ids
 * restarted, so citations could no longer be resolved unambiguously.
 */
export function mergeReceipts(kept: readonly Receipt[], later: readonly Receipt[]): Receipt[] | null {
  const byCall = new Map<string, Receipt>();
  const byId = new Map<string, string>();
  for (const receipt of [...kept, ...later]) {
    if (byCall.has(receipt.tool_call_id)) continue;
    const owner = byId.get(receipt.id);
    if (owner !== undefined && owner !== receipt.tool_call_id) return null;
    byCall.set(receipt.tool_call_id, receipt);
    byId.set(receipt.id, receipt.tool_call_id);
  }
  const merged = [...byCall.values()].sort((a, b) => (parseReceiptNumber(a.id) ?? 0) - (parseReceiptNumber(b.id) ?? 0));
  return boundLedger(merged);
}

/**
 * The receipts a report may cite: the ledger without the calls made by the last assistant message
 * (the report) itself. A turn-capped partial answer can end with tool calls whose results came
 * later; the report could not have seen those receipts, so they must not validate its citations.
 */
export function reportSnapshot(ledger: readonly Receipt[], messages: readonly ReceiptMessage[]): Receipt[] {
  const report = [...messages].reverse().find((m) => m.type === 'ai');
  const own = new Set((report?.tool_calls ?? []).flatMap((call) => (typeof call.id === 'string' ? [call.id] : [])));
  return ledger.filter((receipt) => !own.has(receipt.tool_call_id));
}

/** The receipt of the `n`-th tool call as the model sees it, appended to that call's result. */
export function renderReceiptNote(n: number, toolName: string, outcome: ReceiptOutcome): string {
  return `Tool receipts ledger: ${receiptId(n)} = ${toolName} (${outcome}). Cite it as ${formatReceiptCitation(n, toolName)}.`;
}
