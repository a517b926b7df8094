import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A recorded workflow history checked into `tests/replay/histories/`. */
export interface ReplayFixture {
  readonly file: string;
  readonly workflowId: string;
  /** What the run did, for people reading the manifest. */
  readonly description: string;
}

export const HISTORIES_DIR = join(__dirname, 'histories');
export const MANIFEST_PATH = join(HISTORIES_DIR, 'manifest.json');

export function readManifest(): ReplayFixture[] {
  return JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as ReplayFixture[];
}

/** The history JSON of a fixture (Temporal's standard JSON, as `temporal workflow show -o json` writes). */
export function readHistory(fixture: ReplayFixture): unknown {
  return JSON.parse(readFileSync(join(HISTORIES_DIR, fixture.file), 'utf8')) as unknown;
}
