import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** The project's `src/` folder. */
export const SRC = join(__dirname, '../../src');

/** One static import or re-export of a source file. */
export interface SourceImport {
  /** The importing file, relative to `src/` (`workflows/batch-window.ts`). */
  readonly file: string;
  /** The module specifier as written (`../contracts`, `zod`). */
  readonly spec: string;
  /** Erased when compiled: `import type`, or every named specifier marked `type`. */
  readonly typeOnly: boolean;
}

/**
 * The `.ts` files of a folder of `src/` (`''`: `src/` itself), relative to `src/`; with `deep`,
 * those of its subfolders too.
 */
export function sourceFiles(folder: string, deep = false): string[] {
  return readdirSync(join(SRC, folder)).flatMap((name) => {
    const path = folder === '' ? name : `${folder}/${name}`;
    if (statSync(join(SRC, path)).isDirectory()) return deep ? sourceFiles(path, true) : [];
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every static import and re-export of a file. `require()` calls are left out: they load lazily on purpose. */
export function importsOf(file: string): SourceImport[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'/gms)].map((m) => {
    const names = /^\{([^}]*)\}$/s.exec(m[2] ?? '')?.[1]?.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    const allTypes = names !== undefined && names.length > 0 && names.every((s) => s.startsWith('type '));
    return { file, spec: m[3] ?? '', typeOnly: Boolean(m[1]) || allTypes };
  });
}

/** The file a relative specifier of `file` names (`x.ts` or `x/index.ts`), relative to `src/`. */
export function resolveImport(file: string, spec: string): string {
  const target = normalize(join(dirname(file), spec));
  return existsSync(join(SRC, `${target}.ts`)) ? `${target}.ts` : relative(SRC, join(SRC, target, 'index.ts'));
}

/**
 * The packages a file loads when it runs: its runtime imports, followed through the project's own
 * files (type-only imports are erased, so they load nothing).
 */
export function runtimePackages(file: string, seen = new Set<string>()): Set<string> {
  const packages = new Set<string>();
  if (seen.has(file)) return packages;
  seen.add(file);
  for (const { spec, typeOnly } of importsOf(file)) {
    if (typeOnly) continue;
    if (!spec.startsWith('.')) packages.add(spec);
    else for (const p of runtimePackages(resolveImport(file, spec), seen)) packages.add(p);
  }
  return packages;
}
