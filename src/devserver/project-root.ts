import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest folder at or above `startDir` that contains a `package.json`.
 *
 * Defaults to this file's folder, so it finds the repository root both from `src/` (ts-node, jest)
 * and from `dist/src/` (compiled build).
 *
 * @throws Error when no `package.json` exists up to the filesystem root.
 */
export function findProjectRoot(startDir: string = __dirname): string {
  let dir = path.resolve(startDir);
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json found in ${startDir} or any folder above it`);
    dir = parent;
  }
}
