/**
 * The ranking behind `tool_search` (pure): which deferred tools a query matches, best first. A
 * catalog is tens of tools, not a corpus, so a small scorer over names and descriptions does: a
 * search library's index, stemming and fuzziness would rank ten one-line descriptions no better.
 */

/** What the ranking reads of a tool. */
export interface RankableTool {
  readonly name: string;
  readonly description: string;
}

/** Query prefix that asks for tools by exact name: `select:docs__search,docs__fetch`. */
export const SELECT_QUERY_PREFIX = 'select:';

/** A keyword prefix that makes the keyword required: `+slack send`. */
const REQUIRED_PREFIX = '+';

/** Shorter terms match whole words only: as substrings they would match nearly everything. */
const MIN_SUBSTRING_TERM = 3;

/**
 * Points for where a term occurs, best place only. Names weigh most: they are what a tool is, and a
 * model searching usually guesses part of one; descriptions catch what names leave out.
 */
const SCORE = { exactName: 100, nameWord: 10, nameSubstring: 6, descriptionWord: 3, descriptionSubstring: 1 } as const;

/**
 * The tools `query` matches, best first, at most `maxResults`:
 * - `select:a,b` returns exactly the tools named (in the query's order; unknown names are skipped);
 * - otherwise the query is keywords (`+word` must occur). Each keyword adds the points of its best
 *   place in a tool (its name, a word of its name, a word of its description, inside either); the
 *   whole query equal to a tool's name, or to the server's own name for it (after `<server>__`),
 *   adds most. Tools with no points are left out; ties go by name, so results never depend on order.
 */
export function rankTools<T extends RankableTool>(query: string, tools: readonly T[], maxResults: number): T[] {
  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith(SELECT_QUERY_PREFIX)) return selectTools(trimmed.slice(SELECT_QUERY_PREFIX.length), tools, maxResults);
  const terms = parseTerms(trimmed);
  if (terms.length === 0) return [];
  const whole = trimmed.toLowerCase();
  return tools
    .map((tool) => ({ tool, score: scoreTool(tool, terms, whole) }))
    .filter((scored) => scored.score > 0)
    .sort((a, b) => b.score - a.score || compareNames(a.tool.name, b.tool.name))
    .slice(0, Math.max(0, maxResults))
    .map((scored) => scored.tool);
}

interface Term {
  readonly text: string;
  readonly required: boolean;
}

function selectTools<T extends RankableTool>(list: string, tools: readonly T[], maxResults: number): T[] {
  const wanted = [...new Set(list.split(',').map((name) => name.trim()).filter((name) => name !== ''))];
  return wanted.flatMap((name) => tools.filter((tool) => tool.name === name)).slice(0, Math.max(0, maxResults));
}

function parseTerms(query: string): Term[] {
  return query
    .split(/[\s,]+/)
    .map((token) => {
      const required = token.startsWith(REQUIRED_PREFIX);
      return { text: (required ? token.slice(REQUIRED_PREFIX.length) : token).toLowerCase(), required };
    })
    .filter((term) => term.text !== '');
}

/** 0 when a required term does not occur, else the sum of every term's best points. */
function scoreTool(tool: RankableTool, terms: readonly Term[], wholeQuery: string): number {
  const name = tool.name.toLowerCase();
  const ownName = name.includes('__') ? name.slice(name.indexOf('__') + 2) : name;
  const nameWords = new Set(wordsOf(tool.name));
  const description = tool.description.toLowerCase();
  const descriptionWords = new Set(wordsOf(tool.description));
  let total = wholeQuery === name || wholeQuery === ownName ? SCORE.exactName : 0;
  for (const term of terms) {
    const points = termScore(term.text, name, nameWords, description, descriptionWords);
    if (points === 0 && term.required) return 0;
    total += points;
  }
  return total;
}

function termScore(term: string, name: string, nameWords: ReadonlySet<string>, description: string, descriptionWords: ReadonlySet<string>): number {
  const substrings = term.length >= MIN_SUBSTRING_TERM;
  if (nameWords.has(term)) return SCORE.nameWord;
  if (substrings && name.includes(term)) return SCORE.nameSubstring;
  if (descriptionWords.has(term)) return SCORE.descriptionWord;
  if (substrings && description.includes(term)) return SCORE.descriptionSubstring;
  return 0;
}

/** Lower-case words: split at anything but letters and digits, and between camelCase humps. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
