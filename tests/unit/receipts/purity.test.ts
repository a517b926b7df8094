import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '../../../src/receipts');
const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));

describe('src/receipts (top level) stays pure', () => {
  it('imports only contracts, the pure middleware and prompt helpers, and its own files', () => {
    const allowed = new Set(['../contracts', '../middleware', '../prompts/receipt-citation']);
    for (const file of files) {
      const text = readFileSync(join(DIR, file), 'utf8');
      for (const m of text.matchAll(/^(?:import|export)\s+(?:type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
        const spec = m[1] ?? '';
        expect({ file, spec, ok: allowed.has(spec) || /^\.\/[a-z0-9-]+$/.test(spec) }).toEqual({ file, spec, ok: true });
      }
    }
  });

  it('uses no clock, randomness or environment', () => {
    for (const file of files) {
      const text = readFileSync(join(DIR, file), 'utf8');
      expect({ file, hits: text.match(/new Date\(|Date\.now|Math\.random|process\.|require\(/g) }).toEqual({ file, hits: null });
    }
  });
});
