import type { AppConfig } from '../config/schema';
import type { CatalogEntry } from '../contracts';
import { BUILTIN_SUBAGENTS } from './builtin-subagents';
import { INHERIT_MODEL, type SubagentDefinition } from './subagent-definition';

/**
 * Resolves one subagent by name (SPEC §1.4): a built-in, else a `subagents.custom_agents` entry
 * (a built-in wins on a name clash), then per-agent overrides. Global `timeout_seconds` and
 * `max_turns` layer onto built-ins only. Returns a new object; built-ins are never mutated.
 */
export function resolveSubagent(name: string, config: AppConfig): SubagentDefinition | null {
  const base = BUILTIN_SUBAGENTS.find((d) => d.name === name) ?? customDefinition(name, config);
  if (base === null) return null;
  const override = config.subagents.agents[name];
  const isBuiltin = base.source === 'builtin';
  return {
    ...base,
    timeoutSeconds: override?.timeout_seconds ?? (isBuiltin ? config.subagents.timeout_seconds : base.timeoutSeconds),
    maxTurns: override?.max_turns ?? (isBuiltin ? (config.subagents.max_turns ?? base.maxTurns) : base.maxTurns),
    model: override?.model ?? base.model,
    skills: override?.skills ?? base.skills,
  };
}

function customDefinition(name: string, config: AppConfig): SubagentDefinition | null {
  const custom = config.subagents.custom_agents[name];
  if (custom === undefined) return null;
  return {
    name,
    description: custom.description,
    systemPrompt: custom.system_prompt,
    tools: custom.tools,
    disallowedTools: custom.disallowed_tools,
    skills: custom.skills,
    model: custom.model,
    maxTurns: custom.max_turns,
    timeoutSeconds: custom.timeout_seconds,
    source: 'config',
  };
}

/** Built-in names in order, then custom names not already present. */
export function subagentNames(config: AppConfig): string[] {
  const names = BUILTIN_SUBAGENTS.map((d) => d.name);
  for (const name of Object.keys(config.subagents.custom_agents)) if (!names.includes(name)) names.push(name);
  return names;
}

/** Names the lead may see and use on this host: `bash` only when host bash is allowed. */
export function availableSubagentNames(config: AppConfig): string[] {
  return subagentNames(config).filter((n) => n !== 'bash' || config.sandbox.allow_host_bash);
}

/**
 * The catalog snapshotted into a run's workflow input: available subagents filtered by the
 * caller's `allowed_subagents` policy (null = all, [] = none, list = allowlist).
 */
export function resolveCatalog(config: AppConfig, allowedSubagents: readonly string[] | null): CatalogEntry[] {
  return availableSubagentNames(config)
    .filter((n) => allowedSubagents === null || allowedSubagents.includes(n))
    .flatMap((n) => {
      const def = resolveSubagent(n, config);
      return def ? [{ name: def.name, timeoutSeconds: def.timeoutSeconds, maxTurns: def.maxTurns }] : [];
    });
}

/**
 * The model a subagent runs on (SPEC §1.1): its own model unless `inherit`, else the parent's,
 * else the first configured model.
 * @throws Error when no chat model is configured at all.
 */
export function resolveSubagentModelName(def: SubagentDefinition, parentModel: string | null, config: AppConfig): string {
  if (def.model !== INHERIT_MODEL) return def.model;
  if (parentModel !== null) return parentModel;
  const first = config.models[0];
  if (first === undefined) throw new Error('No chat models are configured: add one under `models` in config.yaml.');
  return first.name;
}
