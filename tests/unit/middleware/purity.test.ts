import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '../../../src/middleware');

/** Every import in src/middleware, as [file, specifier, type-only]. */
function imports(): Array<[string, string, boolean]> {
  const found: Array<[string, string, boolean]> = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(DIR, file), 'utf8');
    for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
      found.push([file, m[3] ?? '', Boolean(m[2])]);
    }
  }
  return found;
}

describe('src/middleware stays bundle-safe for workflows', () => {
  it('imports only zod, src/contracts, its own files and LangChain message types', () => {
    const list = imports();
    expect(list.length).toBeGreaterThan(0);
    for (const [file, spec, typeOnly] of list) {
      const allowed =
        spec === 'zod' ||
        spec === '../contracts' ||
        /^\.\/[a-z0-9-]+$/.test(spec) ||
        (spec === '@langchain/core/messages' && typeOnly);
      expect({ file, spec, allowed }).toEqual({ file, spec, allowed: true });
    }
  });

  it('uses no clock, randomness or environment', () => {
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(DIR, file), 'utf8');
      expect({ file, hits: text.match(/new Date\(|Date\.now|Math\.random|process\.|require\(/g) }).toEqual({ file, hits: null });
    }
  });
});
