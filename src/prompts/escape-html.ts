/** Escapes `&`, `<` and `>` (quotes untouched) so untrusted text cannot open or close our tags. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
