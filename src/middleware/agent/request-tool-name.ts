import type { ModelRequest } from 'langchain';

/** One tool of a model request, as middleware sees it. */
export type RequestTool = ModelRequest['tools'][number];

/**
 * A bound tool's name: a LangChain tool's `name`, or a provider-format tool's `name` or
 * `function.name`. Null for a tool that names itself neither way; filters keep such a tool, since
 * nothing can match it to a list.
 */
export function requestToolName(tool: RequestTool): string | null {
  const rec = tool as { name?: unknown; function?: { name?: unknown } };
  if (typeof rec.name === 'string') return rec.name;
  return typeof rec.function?.name === 'string' ? rec.function.name : null;
}
