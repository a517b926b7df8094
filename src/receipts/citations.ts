/**
 * Reading a subagent's final report (pure): its receipt citations and the sentences that claim an
 * action. The citation syntax is what `formatReceiptCitation` writes (`[r3 write_file]`, `[r1]`);
 * a test round-trips the formatter through this parser so the two cannot drift.
 */

/** One receipt citation found in a report. */
export interface Citation {
  /** As written: `r3`. */
  readonly id: string;
  /** The tool label, or null for a bare `[r1]`. */
  readonly toolName: string | null;
  /** The citation normalised to one item: `[r3 write_file]`. */
  readonly text: string;
}

/** One sentence of a report with the citations that back it. */
export interface ReportSentence {
  /** The sentence as written (leading citations moved to the sentence before). */
  readonly text: string;
  readonly citations: readonly Citation[];
}

const ITEM = String.raw`r\d+(?:[ \t]+[A-Za-z0-9_.:\-]+)?`;
// `[r1 bash]`, `[r1]`, and lists `[r1 bash, r2]`; not a markdown link `[r1 docs](https://…)`.
const GROUP = new RegExp(String.raw`\[(${ITEM}(?:[ \t]*[,;][ \t]*${ITEM})*)\](?!\()`, 'g');
const LEADING_GROUPS = new RegExp(String.raw`^(?:\[${ITEM}(?:[ \t]*[,;][ \t]*${ITEM})*\](?!\()[.,;:!?]?\s*)+`);

/** Every receipt citation in `text`, in order, one per cited item. */
export function parseCitations(text: string): Citation[] {
  const found: Citation[] = [];
  for (const match of text.matchAll(GROUP)) {
    for (const item of (match[1] ?? '').split(/[,;]/)) {
      const [id = '', toolName] = item.trim().split(/[ \t]+/);
      found.push({ id, toolName: toolName ?? null, text: toolName === undefined ? `[${id}]` : `[${id} ${toolName}]` });
    }
  }
  return found;
}

/**
 * The report's sentences with their citations. Fenced code blocks are skipped (quoted output is
 * not a claim); lines split at `.`, `!` or `?` followed by whitespace. A sentence that begins with
 * citations (`Created x. [r1 bash]`) hands them to the sentence before it, where they belong.
 */
export function splitSentences(report: string): ReportSentence[] {
  const sentences: Array<{ text: string; citations: Citation[] }> = [];
  const prose = report.replace(/```[\s\S]*?(?:```|$)/g, '\n');
  for (const line of prose.split(/\r?\n/)) {
    for (const piece of line.split(/(?<=[.!?])\s+/)) {
      let text = piece.trim();
      const leading = LEADING_GROUPS.exec(text)?.[0];
      const previous = sentences[sentences.length - 1];
      if (leading !== undefined && previous !== undefined) {
        previous.citations.push(...parseCitations(leading));
        text = text.slice(leading.length).trim();
      }
      if (text !== '') sentences.push({ text, citations: parseCitations(text) });
    }
  }
  return sentences;
}

/**
 * Past-tense verbs that claim the subagent did something. A heuristic: broad enough to catch the
 * usual "created / ran / deleted" claims, narrow enough that findings ("the file contains") pass.
 */
export const ACTION_VERBS: readonly string[] = [
  'added', 'appended', 'applied', 'built', 'changed', 'checked', 'cleaned', 'cleared', 'committed',
  'compiled', 'configured', 'copied', 'created', 'deleted', 'deployed', 'downloaded', 'edited',
  'executed', 'fetched', 'fixed', 'generated', 'implemented', 'inserted', 'inspected', 'installed',
  'killed', 'merged', 'migrated', 'modified', 'moved', 'patched', 'published', 'pushed', 'ran',
  'removed', 'renamed', 'replaced', 'restarted', 'saved', 'searched', 'sent', 'started', 'stopped',
  'submitted', 'tested', 'uninstalled', 'updated', 'uploaded', 'verified', 'written', 'wrote',
];

const VERB = new RegExp(String.raw`\b(?:${ACTION_VERBS.join('|')})\b`, 'i');
// Before the verb in the same clause, these make it a non-claim: "was not deleted", "should be
// updated", "nothing was changed", "if you ran".
const BLOCKER = new RegExp(
  String.raw`\b(?:not|never|no|nothing|none|neither|nor|cannot|unable|will|would|should|could|can|must|may|might|if|unless|to be|\w+n['’]t)\b`,
  'i',
);
const CLAUSE_BREAK = /[,;:]|\b(?:but|however|while|though|although|whereas)\b/i;

/**
 * Whether a sentence claims an action: some clause holds an action verb with no negation, modal or
 * condition before it. Questions never claim; citations and inline code are ignored.
 */
export function isActionClaim(sentence: string): boolean {
  const text = sentence.replace(GROUP, ' ').replace(/`[^`]*`/g, ' ').trim();
  if (text.endsWith('?')) return false;
  return text.split(CLAUSE_BREAK).some((clause) => {
    const verb = VERB.exec(clause);
    return verb !== null && !BLOCKER.test(clause.slice(0, verb.index));
  });
}
