import { DEFAULT_DISALLOWED_TOOLS } from '../config/schema';
import {
  BASH_DESCRIPTION,
  BASH_SYSTEM_PROMPT,
  GENERAL_PURPOSE_DESCRIPTION,
  GENERAL_PURPOSE_SYSTEM_PROMPT,
} from '../prompts/subagent-role-prompts';
import { INHERIT_MODEL, type SubagentDefinition } from './subagent-definition';

/** Fallback execution cap of a definition; built-ins get `subagents.timeout_seconds` layered on. */
export const DEFINITION_DEFAULT_TIMEOUT_SECONDS = 900;

export const GENERAL_PURPOSE: SubagentDefinition = Object.freeze({
  name: 'general-purpose',
  description: GENERAL_PURPOSE_DESCRIPTION,
  systemPrompt: GENERAL_PURPOSE_SYSTEM_PROMPT,
  tools: null,
  disallowedTools: DEFAULT_DISALLOWED_TOOLS,
  skills: null,
  model: INHERIT_MODEL,
  maxTurns: 150,
  timeoutSeconds: DEFINITION_DEFAULT_TIMEOUT_SECONDS,
  source: 'builtin',
});

export const BASH: SubagentDefinition = Object.freeze({
  name: 'bash',
  description: BASH_DESCRIPTION,
  systemPrompt: BASH_SYSTEM_PROMPT,
  tools: ['bash', 'ls', 'read_file', 'write_file', 'str_replace'],
  disallowedTools: DEFAULT_DISALLOWED_TOOLS,
  skills: null,
  model: INHERIT_MODEL,
  maxTurns: 60,
  timeoutSeconds: DEFINITION_DEFAULT_TIMEOUT_SECONDS,
  source: 'builtin',
});

/** Built-ins in catalog order: `general-purpose` first, then `bash`. */
export const BUILTIN_SUBAGENTS: readonly SubagentDefinition[] = [GENERAL_PURPOSE, BASH];
