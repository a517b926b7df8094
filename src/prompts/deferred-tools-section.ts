import { TOOL_SEARCH_TOOL_NAME } from '../contracts/tool-names';
import { escapeHtml } from './escape-html';

/** What the section shows of a deferred tool. */
export interface ListedDeferredTool {
  readonly name: string;
  readonly description: string;
}

/** Longest description line kept: the section is an index, the schema comes with `tool_search`. */
const DESCRIPTION_MAX_CHARS = 160;

/**
 * The `<available-deferred-tools>` section (pure): one line per deferred tool, its name and the
 * first line of its description, and how to load them. Descriptions come from MCP servers, so they
 * are HTML-escaped (no closing the section early). Empty when nothing is deferred.
 */
export function buildDeferredToolsSection(tools: readonly ListedDeferredTool[]): string {
  if (tools.length === 0) return '';
  return [
    '<available-deferred-tools>',
    `These tools exist but their schemas are not loaded, so they cannot be called yet. Call \`${TOOL_SEARCH_TOOL_NAME}\` with keywords, or with "select:<name>,<name>", to load the ones you need; a loaded tool can be called from your next response on.`,
    ...tools.map((tool) => {
      const line = firstLine(tool.description);
      return line === '' ? `- ${tool.name}` : `- ${tool.name}: ${escapeHtml(line)}`;
    }),
    '</available-deferred-tools>',
  ].join('\n');
}

function firstLine(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
  return line.length > DESCRIPTION_MAX_CHARS ? `${line.slice(0, DESCRIPTION_MAX_CHARS - 1)}…` : line;
}
