import { toolAllowed, toolListIncludes } from '../contracts/tool-patterns';
import type { SubagentDefinition } from './subagent-definition';

/**
 * Whether a subagent gets the tool `name` (pure): its `tools` allowlist (null = all), then its
 * `disallowed_tools`. Built-in and MCP tools pass the same lists; an entry may name a whole MCP
 * server (`<server>__*`).
 */
export function subagentHasTool(def: Pick<SubagentDefinition, 'tools' | 'disallowedTools'>, name: string): boolean {
  return toolAllowed(def.tools, name) && !toolListIncludes(def.disallowedTools, name);
}
