import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

import { SkillError, SkillErrorCode } from './errors';
import { isValidSkillName } from './skill-paths';

const nonBlank = (what: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${what} is required` : `${what} must be a string`) })
    .trim()
    .min(1, `${what} must not be empty`);

/**
 * The SKILL.md front matter. Unknown keys (`license`, ...) are allowed and dropped.
 * `allowed_tools`: absent or null = no restriction, `[]` = no tools but `read_file` (the policy is
 * `src/middleware/skill-tool-policy.ts`).
 */
export const SkillFrontMatterSchema = z.object({
  name: nonBlank('name').refine(isValidSkillName, 'name must be 1-64 letters, digits, _ . - (starting with a letter or digit)'),
  description: nonBlank('description'),
  allowed_tools: z.array(nonBlank('a tool name'), { error: 'allowed_tools must be a list of tool names' }).nullable().default(null),
  enabled: z.boolean({ error: 'enabled must be true or false' }).default(true),
});
/** A validated SKILL.md front matter. */
export type SkillFrontMatter = z.infer<typeof SkillFrontMatterSchema>;

/** A parsed SKILL.md: its front matter and the instructions below it. */
export interface ParsedSkillFile {
  readonly frontMatter: SkillFrontMatter;
  /** The instructions after the front matter, trimmed. */
  readonly body: string;
}

/** Where the text came from, for error messages. */
export interface SkillFileLocation {
  /** Virtual path, shown in messages. */
  readonly file: string;
  /** Host path, kept on the error for logs. */
  readonly hostPath?: string;
}

// `---` fence, the YAML (possibly empty), `---` fence; CRLF files are common when authored on Windows.
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/**
 * Parses the text of a SKILL.md (pure).
 * @throws SkillError `MALFORMED_SKILL` naming `location.file` and the field at fault: no front
 *   matter, invalid YAML, front matter not a mapping, or a field failing {@link SkillFrontMatterSchema}
 */
export function parseSkillFile(text: string, location: SkillFileLocation): ParsedSkillFile {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const match = FRONT_MATTER.exec(source);
  if (match === null) {
    throw malformed(location, 'front matter', 'the file must start with a YAML front matter block between `---` lines');
  }
  let raw: unknown;
  try {
    raw = parseYaml(match[1] ?? '');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw malformed(location, 'front matter', `invalid YAML: ${reason}`, err);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw malformed(location, 'front matter', 'the front matter must be a YAML mapping with at least `name` and `description`');
  }
  const parsed = SkillFrontMatterSchema.safeParse(withAllowedToolsAlias(raw as Record<string, unknown>, location));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? 'front matter' : issue.path.map(String).join('.');
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem(s))` : '';
    throw malformed(location, field, `${issue?.message ?? 'invalid front matter'}${more}`, parsed.error);
  }
  return { frontMatter: parsed.data, body: source.slice(match[0].length).trim() };
}

// The public SKILL.md convention spells it `allowed-tools`; accept it rather than silently drop it.
function withAllowedToolsAlias(raw: Record<string, unknown>, location: SkillFileLocation): Record<string, unknown> {
  if (!('allowed-tools' in raw)) return raw;
  if ('allowed_tools' in raw) {
    throw malformed(location, 'allowed_tools', 'give either `allowed_tools` or `allowed-tools`, not both');
  }
  const { 'allowed-tools': alias, ...rest } = raw;
  return { ...rest, allowed_tools: alias };
}

function malformed(location: SkillFileLocation, field: string, reason: string, cause?: unknown): SkillError {
  return new SkillError(SkillErrorCode.MalformedSkill, `Invalid ${location.file}: field "${field}": ${reason}`, {
    file: location.file,
    field,
    ...(location.hostPath === undefined ? {} : { hostPath: location.hostPath }),
    ...(cause === undefined ? {} : { cause }),
  });
}
