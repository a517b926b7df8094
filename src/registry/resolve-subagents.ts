import type { AppConfig } from '../config/schema';
import type { CatalogEntry, ManagedSubagent } from '../contracts';
import { BUILTIN_SUBAGENTS } from './builtin-subagents';
import { INHERIT_MODEL, type SubagentDefinition } from './subagent-definition';

/** Managed definitions as read from the AgentDefinitionStore (absent = none). */
export type ManagedSubagents = readonly ManagedSubagent[];

/** Whether a managed definition takes part at run time, and if not, why. */
export type ManagedStatus = 'active' | 'disabled' | 'shadowed';

/** Names owned by definitions that outrank managed ones: built-ins, then config custom agents. */
function ownedNames(config: AppConfig): Set<string> {
  return new Set([...BUILTIN_SUBAGENTS.map((d) => d.name), ...Object.keys(config.subagents.custom_agents)]);
}

/**
 * A managed definition is stored but excluded at run time when disabled, or when a built-in or a
 * config definition owns its name (SPEC §1.4).
 */
export function managedStatus(def: ManagedSubagent, config: AppConfig): ManagedStatus {
  if (ownedNames(config).has(def.name)) return 'shadowed';
  return def.enabled ? 'active' : 'disabled';
}

/**
 * Resolves one subagent by name (SPEC §1.4): a built-in, else a `subagents.custom_agents` entry
 * (a built-in wins on a name clash), else an active managed definition, then per-agent overrides.
 * Global `timeout_seconds` and `max_turns` layer onto built-ins only. Returns a new object; nothing
 * it was built from is mutated.
 */
export function resolveSubagent(name: string, config: AppConfig, managed: ManagedSubagents = []): SubagentDefinition | null {
  const base =
    BUILTIN_SUBAGENTS.find((d) => d.name === name) ?? customDefinition(name, config) ?? managedDefinition(name, config, managed);
  if (base === null) return null;
  // Own keys only, as for every lookup by a caller-supplied name (`constructor` is a valid agent name).
  const override = Object.hasOwn(config.subagents.agents, name) ? config.subagents.agents[name] : undefined;
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
  const custom = Object.hasOwn(config.subagents.custom_agents, name) ? config.subagents.custom_agents[name] : undefined;
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

function managedDefinition(name: string, config: AppConfig, managed: ManagedSubagents): SubagentDefinition | null {
  const def = managed.find((m) => m.name === name);
  if (def === undefined || managedStatus(def, config) !== 'active') return null;
  return {
    name,
    description: def.description,
    systemPrompt: def.system_prompt,
    tools: def.tools,
    disallowedTools: def.disallowed_tools,
    skills: def.skills,
    model: def.model,
    maxTurns: def.max_turns,
    timeoutSeconds: def.timeout_seconds,
    source: 'managed',
  };
}

/** Built-in names in order, then config custom names, then active managed names (no duplicates). */
export function subagentNames(config: AppConfig, managed: ManagedSubagents = []): string[] {
  const names = BUILTIN_SUBAGENTS.map((d) => d.name);
  for (const name of Object.keys(config.subagents.custom_agents)) if (!names.includes(name)) names.push(name);
  for (const def of managed) if (managedStatus(def, config) === 'active' && !names.includes(def.name)) names.push(def.name);
  return names;
}

/** Names the lead may see and use on this host: `bash` only when host bash is allowed. */
export function availableSubagentNames(config: AppConfig, managed: ManagedSubagents = []): string[] {
  return subagentNames(config, managed).filter((n) => n !== 'bash' || config.sandbox.allow_host_bash);
}

/**
 * The catalog snapshotted into a run's workflow input: available subagents filtered by the
 * caller's `allowed_subagents` policy (null = all, [] = none, list = allowlist).
 */
export function resolveCatalog(
  config: AppConfig,
  allowedSubagents: readonly string[] | null,
  managed: ManagedSubagents = [],
): CatalogEntry[] {
  return availableSubagentNames(config, managed)
    .filter((n) => allowedSubagents === null || allowedSubagents.includes(n))
    .flatMap((n) => {
      const def = resolveSubagent(n, config, managed);
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
