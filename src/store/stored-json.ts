// A `\u0000` escape preceded by an even number of backslashes (so not an escaped backslash + "u0000").
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * The JSON text every backend stores for a payload or message. U+0000 inside strings becomes
 * U+FFFD: PostgreSQL cannot store it in `text` or `jsonb`, and both backends must read back the
 * same value. `undefined` is stored as `null`.
 * @internal
 */
export function toStoredJson(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  // The plain search first: the expression is costly and hardly ever has anything to replace.
  return json.includes('\\u0000') ? json.replace(NUL_ESCAPE, '$1\\ufffd') : json;
}
