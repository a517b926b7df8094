/**
 * Canonical JSON of a tool call's arguments, so equal arguments hash equally however the provider
 * ordered their keys. Written by hand rather than with a sorting replacer: JavaScript objects
 * always list integer-like keys first, which would make `{"10":…,"9":…}` depend on engine order
 * rules instead of plain code-unit sorting.
 */

/**
 * `value` as JSON with object keys sorted (code-unit order) at every depth and no whitespace.
 * Follows `JSON.stringify` for the rest: `toJSON` is honoured, `undefined`/functions/symbols are
 * dropped from objects and become `null` in arrays, non-finite numbers become `null`. A bigint
 * (never produced by a JSON parser) is written as its decimal string. A top-level value with no
 * JSON form gives `null`.
 */
export function canonicalJson(value: unknown): string {
  return encode(value) ?? 'null';
}

function encode(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return encode(withJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item: unknown) => encode(item) ?? 'null').join(',')}]`;
  const record = value as Record<string, unknown>;
  const fields: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const encoded = encode(record[key]);
    if (encoded !== undefined) fields.push(`${JSON.stringify(key)}:${encoded}`);
  }
  return `{${fields.join(',')}}`;
}
