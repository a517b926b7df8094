import type { RunEvent } from '../contracts';

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function field(payload: unknown, key: string): unknown {
  return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[key] : undefined;
}

/** One human-readable line for a stored run event, for live progress output. */
export function describeEvent(event: RunEvent): string {
  const p = event.payload;
  const tag = `[${event.taskId ?? '-'}]`;
  switch (event.event) {
    case 'subagent.start':
      return `${tag} ${String(field(p, 'subagent'))} started: ${String(field(p, 'description'))} (model ${String(field(p, 'model_name'))})`;
    case 'subagent.step': {
      const calls = field(p, 'tool_calls');
      if (field(p, 'kind') === 'tool') return `${tag}   ${String(field(p, 'tool_name'))} → ${oneLine(String(field(p, 'text')))}`;
      const named = Array.isArray(calls) && calls.length > 0
        ? calls.map((c) => `${String(field(c, 'name'))}(${oneLine(JSON.stringify(field(c, 'args')), 60)})`).join(', ')
        : '';
      const text = oneLine(String(field(p, 'text') ?? ''));
      const resumed = field(p, 'resumed_from');
      const from = resumed === undefined ? '' : `(resumed after step ${String(resumed)}) `;
      return `${tag}   ${from}${named ? `calls ${named}` : `says: ${text}`}`;
    }
    case 'subagent.end': {
      const usage = field(p, 'usage');
      const tokens = usage === undefined ? 'usage not reported' : `${String(field(usage, 'total_tokens'))} tokens`;
      const detail = field(p, 'error') ?? field(p, 'result');
      return `${tag} ${String(field(p, 'status'))} (${tokens})${detail === undefined ? '' : `: ${oneLine(String(detail))}`}`;
    }
    case 'tool.start':
      return `${tag} lead calls ${String(field(p, 'tool'))}(${oneLine(String(field(p, 'args') ?? ''), 60)})`;
    case 'tool.end': {
      const detail = field(p, 'error') ?? field(p, 'output');
      return `${tag} ${String(field(p, 'tool'))} ${String(field(p, 'status'))}${detail === undefined ? '' : ` → ${oneLine(String(detail))}`}`;
    }
    case 'clarification.asked':
      return `${tag} the lead asks: ${String(field(p, 'question'))}`;
    case 'clarification.answered':
      return `${tag} answered: ${oneLine(String(field(p, 'answer')))}`;
    case 'clarification.timed_out':
      return `${tag} no answer within ${String(field(p, 'waited_seconds'))} s: the run needs input`;
    default:
      return `${tag} ${event.event}`;
  }
}
