import { dirname, join, normalize } from 'node:path';
import { importsOf, sourceFiles, type SourceImport } from '../support/source-imports';

/**
 * The layers of `src/`, lowest first (README "Architecture"): a module imports only from its own
 * layer and the ones before it. The LangChain middleware of `middleware/agent` and `receipts/agent`
 * sits above the tools it wraps.
 */
const LAYERS: readonly string[] = [
  'contracts',
  'config',
  'devserver',
  'store',
  'models',
  'prompts',
  'registry',
  'skills',
  'middleware',
  'tools',
  'mcp',
  'telemetry',
  'receipts',
  'middleware/agent',
  'receipts/agent',
  'workflows',
  'activities',
  'worker',
  'client',
  'gateway',
  'cli',
  'testing',
];

/** The layer of a path relative to `src/`. */
function layerOf(path: string): string {
  const [top = '', sub = ''] = path.split('/');
  const nested = `${top}/${sub}`;
  return LAYERS.includes(nested) ? nested : top;
}

/** Workflows name their activities' signatures (STYLE habit 1): the one import allowed upwards. */
const typesOfActivities = ({ file, spec, typeOnly }: SourceImport): boolean =>
  layerOf(file) === 'workflows' && spec === '../activities/activity-types' && typeOnly;

describe('src/ layers', () => {
  const files = sourceFiles('', true);
  const imports = files.flatMap(importsOf).filter(({ spec }) => spec.startsWith('.'));

  it('name every folder', () => {
    expect([...new Set(files.map(layerOf))].filter((layer) => !LAYERS.includes(layer))).toEqual([]);
  });

  it('are imported downwards only', () => {
    for (const entry of imports) {
      const from = layerOf(entry.file);
      const to = layerOf(normalize(join(dirname(entry.file), entry.spec)));
      const downwards = LAYERS.indexOf(to) <= LAYERS.indexOf(from) || typesOfActivities(entry);
      expect({ ...entry, to, downwards }).toEqual({ ...entry, to, downwards: true });
    }
  });
});
