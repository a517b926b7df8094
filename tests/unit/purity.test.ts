import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importsOf, resolveImport, runtimePackages, SRC, sourceFiles, type SourceImport } from '../support/source-imports';

// The folders the docs call pure, which workflow code may load: no I/O, no Node APIs, and (but
// for workflows, whose clock the SDK replays) no clock, randomness or environment.

const ownFile = (spec: string): boolean => /^\.\/[a-z0-9-]+$/.test(spec);

interface PureFolder {
  /** Folder of `src/`; only its top level (`agent/` subfolders run in activities). */
  readonly folder: string;
  readonly allowed: (found: SourceImport) => boolean;
  /** Whether the clock, randomness and the environment are checked too. */
  readonly timeless: boolean;
}

const PURE_FOLDERS: readonly PureFolder[] = [
  {
    folder: 'contracts',
    allowed: ({ spec, typeOnly }) =>
      spec === 'zod' || spec === '@temporalio/common' || ownFile(spec) || (spec === '@langchain/core/messages' && typeOnly),
    timeless: true,
  },
  {
    folder: 'prompts',
    allowed: ({ spec }) => spec === 'zod' || spec === '../contracts' || /^\.\.\/contracts\/[a-z0-9-]+$/.test(spec) || ownFile(spec),
    timeless: true,
  },
  {
    folder: 'middleware',
    allowed: ({ spec, typeOnly }) => spec === 'zod' || spec === '../contracts' || ownFile(spec) || (spec === '@langchain/core/messages' && typeOnly),
    timeless: true,
  },
  {
    folder: 'receipts',
    allowed: ({ spec }) => ['../contracts', '../middleware', '../prompts/receipt-citation'].includes(spec) || ownFile(spec),
    timeless: true,
  },
  {
    folder: 'workflows',
    allowed: ({ spec, typeOnly }) =>
      spec === '@temporalio/workflow' ||
      (spec === '@temporalio/common' && typeOnly) ||
      ownFile(spec) ||
      /^\.\.\/(contracts|middleware|prompts)(\/[a-z0-9-]+)?$/.test(spec) ||
      (spec === '../activities/activity-types' && typeOnly),
    timeless: false,
  },
];

describe.each(PURE_FOLDERS)('src/$folder (top level) stays pure', ({ folder, allowed, timeless }) => {
  const files = sourceFiles(folder);

  it('imports only what the folder may', () => {
    const found = files.flatMap(importsOf);
    expect(found.length).toBeGreaterThan(0);
    for (const entry of found) {
      expect({ ...entry, allowed: allowed(entry) }).toEqual({ ...entry, allowed: true });
    }
  });

  if (timeless) {
    it('uses no clock, randomness or environment', () => {
      for (const file of files) {
        const text = readFileSync(join(SRC, file), 'utf8');
        expect({ file, hits: text.match(/new Date\(\)|Date\.now|Math\.random|process\.|require\(/g) }).toEqual({ file, hits: null });
      }
    });
  }
});

describe('the workflow bundle', () => {
  it('loads no zod, LangChain or Node module through the modules workflows import from other folders', () => {
    // Module scope runs again for every workflow execution (workflows/ARCHITECTURE.md): a schema
    // built at import costs CPU per execution, so schemas load lazily (input-schemas.ts).
    for (const { file, spec, typeOnly } of sourceFiles('workflows').flatMap(importsOf)) {
      if (typeOnly || !spec.startsWith('../')) continue;
      const loaded = [...runtimePackages(resolveImport(file, spec))].filter((p) => p !== '@temporalio/common' && p !== '@temporalio/workflow');
      expect({ file, spec, loaded }).toEqual({ file, spec, loaded: [] });
    }
  });
});
