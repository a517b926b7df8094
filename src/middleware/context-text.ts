/**
 * Text helpers for model-visible durable context. Kept here rather than imported from
 * `src/prompts` so this folder's pure functions depend on nothing but `src/contracts` and zod.
 * @internal
 */

/** Escapes `&`, `<` and `>` (quotes untouched), so untrusted text cannot open or close our tags. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Collapses every whitespace run to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.split(/\s+/u).filter((part) => part.length > 0).join(' ');
}

/** One-line, escaped rendering of an untrusted value: the form every ledger and skill field takes. */
export function escapeContextText(text: string): string {
  return escapeHtml(collapseWhitespace(text));
}

/** The first `cap` UTF-16 units of `text`, without leaving half of a surrogate pair at the end. */
export function cutText(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const cut = text.slice(0, Math.max(0, cap));
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
