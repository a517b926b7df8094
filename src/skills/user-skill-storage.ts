import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';

import { BoundedMap } from '../contracts/bounded-map';
import { SkillError, SkillErrorCode } from './errors';
import { parseSkillFile } from './skill-file';
import type { ParsedSkillFile } from './skill-file';
import {
  SKILLS_VIRTUAL_ROOT,
  SKILL_FILE_NAME,
  SkillSource,
  assertValidSkillName,
  isValidSkillName,
  normalizeUserId,
  skillVirtualPath,
} from './skill-paths';

/** What the agent is told about one skill; the instructions stay on disk until it reads them. */
export interface SkillMetadata {
  readonly name: string;
  readonly description: string;
  /** Virtual path of the SKILL.md, `/mnt/skills/<public|user>/<name>/SKILL.md`. */
  readonly path: string;
  /** Tools the skill may use; null = no restriction. Enforced at run time, not when tools are built. */
  readonly allowedTools: readonly string[] | null;
  readonly enabled: boolean;
  readonly source: SkillSource;
}

/** Which version of a file was seen: its modification time and size. */
interface FileVersion {
  readonly mtimeNs: bigint;
  readonly size: bigint;
}

/** SKILL.md files parsed so far in this process, by host path, with the version of the file read. */
interface ParsedVersion extends FileVersion {
  readonly parsed: ParsedSkillFile;
}

/** Enough for every skill of many users; a file past the bound is only parsed again. */
const PARSED_SKILL_FILES = 4096;
const parsedSkillFiles = new BoundedMap<string, ParsedVersion>(PARSED_SKILL_FILES);

/**
 * The skills one user can see: deployment-wide public skills in `<dataDir>/skills/public/<name>/`
 * and the user's own in `<dataDir>/users/<userId>/skills/<name>/`; a user skill shadows a public
 * skill of the same name. Every call lists the folders and checks each SKILL.md's modification
 * time and size, so edits show at once; only a file that did not change since it was last parsed
 * (every subagent task lists its skills) is not read and parsed again.
 */
export class UserSkillStorage {
  readonly userId: string;
  /** Host folder of the public skills. */
  readonly publicRoot: string;
  /** Host folder of this user's skills. */
  readonly userRoot: string;

  /**
   * @param dataDir - the application data directory (`store.data_dir`), made absolute against the
   *   current directory; not read until a method is called
   * @param userId - the owner; `''` means {@link DEFAULT_USER_ID}
   * @throws SkillError `INVALID_USER_ID`
   */
  constructor(dataDir: string, userId: string) {
    this.userId = normalizeUserId(userId);
    const root = path.resolve(dataDir);
    this.publicRoot = path.join(root, 'skills', SkillSource.Public);
    this.userRoot = path.join(root, 'users', this.userId, 'skills');
  }

  /**
   * Metadata of every skill this user sees (enabled or not), sorted by name. A missing skills
   * folder is an empty list. A shadowed public skill is not read at all.
   * @throws SkillError `MALFORMED_SKILL` (naming file and field), `INVALID_SKILL_NAME` for a skill
   *   folder whose name is not a valid skill name, `IO_ERROR`
   */
  async listSkills(): Promise<readonly SkillMetadata[]> {
    const [publicFolders, userFolders] = await Promise.all([this.skillFolders(SkillSource.Public), this.skillFolders(SkillSource.User)]);
    const effective = new Map<string, { source: SkillSource; version: FileVersion }>();
    for (const [name, version] of publicFolders) effective.set(name, { source: SkillSource.Public, version });
    for (const [name, version] of userFolders) effective.set(name, { source: SkillSource.User, version });
    const loaded = await Promise.all([...effective].map(([name, { source, version }]) => this.readMetadata(source, name, version)));
    return loaded.filter((s): s is SkillMetadata => s !== null).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * The instructions (body) of the skill this user sees under `name`, the user's own first,
   * whether enabled or not (selection is the caller's business).
   * @throws SkillError `INVALID_SKILL_NAME`, `SKILL_NOT_FOUND`, `MALFORMED_SKILL`, `IO_ERROR`
   */
  async readSkillBody(name: string): Promise<string> {
    assertValidSkillName(name);
    for (const source of [SkillSource.User, SkillSource.Public]) {
      const parsed = await this.readSkillFile(source, name);
      if (parsed !== null) return parsed.body;
    }
    throw new SkillError(SkillErrorCode.SkillNotFound, `Skill ${JSON.stringify(name)} not found`);
  }

  /**
   * Maps a path under `/mnt/skills/<public|user>/<name>/` to the host file, for a file tool that
   * serves skill files. The file must exist and, with symlinks followed, stay inside its skill
   * folder, which must stay inside its root (so symlink `skills/public` as a whole, not one skill).
   * @throws SkillError `INVALID_SKILL_PATH` (malformed or escaping), `SKILL_NOT_FOUND` (no such file)
   */
  async resolveVirtualPath(virtualPath: string): Promise<string> {
    const refuse = (why: string) =>
      new SkillError(SkillErrorCode.InvalidSkillPath, `Invalid skill path ${JSON.stringify(virtualPath)}: ${why}`);
    if (virtualPath.includes('\0')) throw refuse('contains a NUL byte');
    const normalized = path.posix.normalize(virtualPath);
    if (!normalized.startsWith(`${SKILLS_VIRTUAL_ROOT}/`)) throw refuse(`not under ${SKILLS_VIRTUAL_ROOT}/`);
    const [source, name, ...rest] = normalized.slice(SKILLS_VIRTUAL_ROOT.length + 1).split('/').filter((s) => s !== '');
    if (source !== SkillSource.Public && source !== SkillSource.User) throw refuse(`expected ${SKILLS_VIRTUAL_ROOT}/public/ or ${SKILLS_VIRTUAL_ROOT}/user/`);
    if (name === undefined || !isValidSkillName(name)) throw refuse('no valid skill name after the source folder');
    const root = this.rootOf(source);
    const skillDir = path.join(root, name);
    const hostPath = path.join(skillDir, ...rest);
    let realRoot: string;
    let realDir: string;
    let realFile: string;
    try {
      [realRoot, realDir, realFile] = await Promise.all([fs.realpath(root), fs.realpath(skillDir), fs.realpath(hostPath)]);
    } catch (err) {
      if (isMissing(err)) throw new SkillError(SkillErrorCode.SkillNotFound, `No such skill file: ${normalized}`, { cause: err });
      throw ioError(err, normalized, hostPath);
    }
    // Both hops: a file symlinked out of its skill, or a whole skill folder symlinked out of the root.
    if (!isInside(realDir, realRoot) || !isInside(realFile, realDir)) throw refuse('leaves its skill folder');
    return hostPath;
  }

  private rootOf(source: SkillSource): string {
    return source === SkillSource.Public ? this.publicRoot : this.userRoot;
  }

  /** The folders under a root that hold a SKILL.md, by name, with the version of that file; hidden folders are not skills. */
  private async skillFolders(source: SkillSource): Promise<Map<string, FileVersion>> {
    const root = this.rootOf(source);
    const where = `${SKILLS_VIRTUAL_ROOT}/${source}`;
    // No skills installed is common: checked first, it costs no error object (stack trace) per task.
    if (!existsSync(root)) return new Map();
    let entries: string[];
    try {
      entries = await fs.readdir(root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
      throw ioError(err, where, root);
    }
    const found = await Promise.all(
      entries
        .filter((entry) => !entry.startsWith('.'))
        .map(async (entry) => {
          const file = path.join(root, entry, SKILL_FILE_NAME);
          let version: FileVersion;
          try {
            version = await fs.stat(file, { bigint: true });
          } catch (err) {
            // Plain files and folders without a SKILL.md (READMEs, scratch folders) are not skills.
            if (isMissing(err)) return null;
            throw ioError(err, `${where}/${entry}/${SKILL_FILE_NAME}`, file);
          }
          return [assertValidSkillName(entry, `skill folder name in ${where}/`), version] as const;
        }),
    );
    return new Map(found.filter((folder) => folder !== null));
  }

  private async readMetadata(source: SkillSource, name: string, listed: FileVersion): Promise<SkillMetadata | null> {
    const parsed = await this.readSkillFile(source, name, listed);
    if (parsed === null) return null;
    const fm = parsed.frontMatter;
    return {
      name: fm.name,
      description: fm.description,
      path: skillVirtualPath(source, name),
      allowedTools: fm.allowed_tools,
      enabled: fm.enabled,
      source,
    };
  }

  /**
   * Reads and parses one SKILL.md, or returns what it parsed from the same version of the file
   * (`listed`, when the listing just saw it; else stat now); null when it is not there (it may
   * vanish between listing and reading).
   */
  private async readSkillFile(source: SkillSource, name: string, listed?: FileVersion): Promise<ParsedSkillFile | null> {
    const file = skillVirtualPath(source, name);
    const hostPath = path.join(this.rootOf(source), name, SKILL_FILE_NAME);
    let text: string;
    let version: FileVersion;
    try {
      version = listed ?? (await fs.stat(hostPath, { bigint: true }));
      const known = parsedSkillFiles.get(hostPath);
      if (known !== undefined && known.mtimeNs === version.mtimeNs && known.size === version.size) return known.parsed;
      // Stat first: a change between the two is read now and seen as a new version next time.
      text = await fs.readFile(hostPath, 'utf8');
    } catch (err) {
      if (isMissing(err)) return null;
      throw ioError(err, file, hostPath);
    }
    const parsed = parseSkillFile(text, { file, hostPath });
    // The folder name is what paths and shadowing use, so a differing `name` would make both lie.
    if (parsed.frontMatter.name !== name) {
      throw new SkillError(
        SkillErrorCode.MalformedSkill,
        `Invalid ${file}: field "name": ${JSON.stringify(parsed.frontMatter.name)} must match its folder name ${JSON.stringify(name)}`,
        { file, hostPath, field: 'name' },
      );
    }
    parsedSkillFiles.set(hostPath, { mtimeNs: version.mtimeNs, size: version.size, parsed });
    return parsed;
  }
}

/**
 * The skill storage of one user.
 * @param dataDir - `store.data_dir`
 * @param userId - the run's user; {@link DEFAULT_USER_ID} when `undefined`, `null` or `''`
 * @throws SkillError `INVALID_USER_ID` when the id is not a safe folder name
 */
export function getOrNewUserSkillStorage(dataDir: string, userId?: string | null): UserSkillStorage {
  // Instances hold no state beyond their paths, so a process-wide cache (STYLE §c.2) buys nothing.
  return new UserSkillStorage(dataDir, normalizeUserId(userId));
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function ioError(err: unknown, virtualPath: string, hostPath: string): SkillError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  return new SkillError(SkillErrorCode.IoError, `Cannot read ${virtualPath}: ${code}`, { file: virtualPath, hostPath, cause: err });
}
