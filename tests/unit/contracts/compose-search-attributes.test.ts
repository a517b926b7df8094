import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../../src/contracts/search-attributes';
import { searchAttributeFlags } from '../../../src/devserver/search-attribute-flags';

interface ComposeFile {
  readonly services: Record<string, { readonly command?: readonly string[] } | undefined>;
}

/** `Name=Type` pairs the compose file's one-shot service registers. */
function composeRegistrations(): string[] {
  const compose = parse(readFileSync(join(__dirname, '..', '..', '..', 'docker-compose.temporal.yml'), 'utf8')) as ComposeFile;
  const script = (compose.services['register-search-attributes']?.command ?? []).join('\n');
  return [...script.matchAll(/\b(Deerflow\w+=\w+)\b/g)].map((m) => m[1]!);
}

test('docker-compose.temporal.yml registers every search attribute the workflows upsert, with its type', () => {
  // The dev server's `--search-attribute` flags spell the types as the Temporal CLI does, as compose does.
  const expected = searchAttributeFlags(CUSTOM_SEARCH_ATTRIBUTES).filter((flag) => flag !== '--search-attribute');
  expect(composeRegistrations().sort()).toEqual(expected.sort());
});
