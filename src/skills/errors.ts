/**
 * Errors of the `skills` layer. One shape (STYLE §b.4): a stable `name`, a closed `code`, readonly
 * fields, an optional `cause`, and {@link isSkillError} to use instead of `instanceof`.
 *
 * Messages name files by the virtual path the agent sees (`/mnt/skills/...`), never the host path:
 * a load error becomes the failed task's error text, which reaches the lead model and the UI.
 */

/** Every failure kind this layer raises. */
export const SkillErrorCode = {
  /** The user id is not a safe folder name. */
  InvalidUserId: 'INVALID_USER_ID',
  /** A skill name (a folder, or a name asked for) is not a safe folder name. */
  InvalidSkillName: 'INVALID_SKILL_NAME',
  /** A SKILL.md has no front matter, bad YAML, or a field that fails validation. */
  MalformedSkill: 'MALFORMED_SKILL',
  SkillNotFound: 'SKILL_NOT_FOUND',
  /** A `/mnt/skills` path is malformed or leaves its skill folder. */
  InvalidSkillPath: 'INVALID_SKILL_PATH',
  /** The file system refused a read for a reason other than "not there". */
  IoError: 'IO_ERROR',
} as const;
/** Union of {@link SkillErrorCode} values. */
export type SkillErrorCode = (typeof SkillErrorCode)[keyof typeof SkillErrorCode];

// A registry-wide symbol so the brand survives duplicate copies of this module (jest, bundles).
const BRAND = Symbol.for('deerflow.skills.error');

/** Where a {@link SkillError} happened, when it concerns one file or field. */
export interface SkillErrorDetails {
  /** Virtual path of the file at fault (`/mnt/skills/<public|user>/<name>/SKILL.md`). */
  readonly file?: string;
  /** Host path of that file, for operators' logs; never put in the message. */
  readonly hostPath?: string;
  /** Front-matter field at fault (`description`, `allowed_tools.1`), or `front matter` for the block. */
  readonly field?: string;
  readonly cause?: unknown;
}

/** The one error class raised by `src/skills`; {@link SkillError.code} tells the kinds apart. */
export class SkillError extends Error {
  override readonly name = 'SkillError';
  readonly code: SkillErrorCode;
  readonly file: string | undefined;
  readonly hostPath: string | undefined;
  readonly field: string | undefined;
  /** Brand checked by the predicates. */
  readonly [BRAND] = true;

  constructor(code: SkillErrorCode, message: string, details: SkillErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.file = details.file;
    this.hostPath = details.hostPath;
    this.field = details.field;
  }
}

/** True for any error raised by `src/skills`; with `code`, only for that kind. */
export function isSkillError(err: unknown, code?: SkillErrorCode): err is SkillError {
  if (typeof err !== 'object' || err === null) return false;
  const rec = err as { [BRAND]?: unknown; code?: unknown };
  return rec[BRAND] === true && (code === undefined || rec.code === code);
}
