import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The checked-in data dir: public skills plus users alice, bob and default. */
export const FIXTURE_DATA_DIR = path.resolve(__dirname, '../../fixtures/skills/data-dir');

/** A fresh empty data dir; remove it with `fs.rm(dir, { recursive: true, force: true })`. */
export function makeTempDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'deerflow-skills-'));
}

/** Writes `<dataDir>/<folder>/SKILL.md` (`folder` like `skills/public/x` or `users/u/skills/x`). */
export async function writeSkill(dataDir: string, folder: string, text: string): Promise<string> {
  const dir = path.join(dataDir, ...folder.split('/'));
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, 'SKILL.md');
  await fs.writeFile(file, text);
  return file;
}

/** A minimal valid SKILL.md. */
export function skillText(name: string, description = `About ${name}.`, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody of ${name}.\n`;
}

/** The rejection of `promise`, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (err: unknown) => err,
  );
}

/** What `fn` throws, failing the test when it returns. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}
