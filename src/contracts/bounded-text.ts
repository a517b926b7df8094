/** Longest text a workflow history or tool-message metadata field may carry (SPEC §3.2). */
export const METADATA_TEXT_MAX_CHARS = 2000;

const MARKER = '\n...\n';

/**
 * Bounds `text` to `cap` characters keeping its head (2/3) and tail, joined by a marker,
 * so both how a text starts and how it ends survive (SPEC §3.2 `_bound_metadata_text`).
 */
export function boundText(text: string, cap: number = METADATA_TEXT_MAX_CHARS): string {
  const stripped = text.trim();
  if (stripped.length <= cap) return stripped;
  if (cap <= MARKER.length) return stripped.slice(0, Math.max(0, cap));
  const head = Math.floor((cap * 2) / 3);
  const tail = cap - head - MARKER.length;
  if (tail <= 0) return stripped.slice(0, cap);
  return stripped.slice(0, head) + MARKER + stripped.slice(stripped.length - tail);
}
