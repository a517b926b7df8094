import type { AppConfig, LeadAgent } from '../config/schema';
import type { ManagedLeadAgent } from '../contracts';

/** A lead agent definition, from config.yaml or from the store. */
export interface LeadAgentDefinition extends LeadAgent {
  readonly name: string;
  readonly source: 'config' | 'managed';
}

/**
 * Resolves a lead agent: `agents.<name>` in config owns its name; a stored definition of the same
 * name is shadowed. Returns null when neither defines it.
 */
export function resolveLeadAgent(name: string, config: AppConfig, managed: readonly ManagedLeadAgent[] = []): LeadAgentDefinition | null {
  // Own keys only: a caller-supplied name such as `toString` must not resolve to Object.prototype.
  const fromConfig = Object.hasOwn(config.agents, name) ? config.agents[name] : undefined;
  if (fromConfig !== undefined) return { ...fromConfig, name, source: 'config' };
  const stored = managed.find((a) => a.name === name);
  if (stored === undefined) return null;
  return {
    name,
    description: stored.description,
    system_prompt: stored.system_prompt,
    model: stored.model,
    allowed_subagents: stored.allowed_subagents,
    skills: stored.skills,
    max_turns: stored.max_turns,
    tools: stored.tools,
    token_budget: null,
    clarification_timeout_seconds: stored.clarification_timeout_seconds,
    source: 'managed',
  };
}

/** Every lead agent name: config ones first, then stored ones not shadowed. */
export function leadAgentNames(config: AppConfig, managed: readonly ManagedLeadAgent[] = []): string[] {
  const names = Object.keys(config.agents);
  for (const agent of managed) if (!names.includes(agent.name)) names.push(agent.name);
  return names;
}
