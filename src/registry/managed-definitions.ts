import type { ManagedLeadAgent, ManagedSubagent } from '../contracts';
import type { AgentDefinitionStore } from '../store/agent-definition-store';

/** Agent definitions an administrator stored at run time, read together for one decision. */
export interface ManagedDefinitions {
  readonly subagents: readonly ManagedSubagent[];
  readonly leadAgents: readonly ManagedLeadAgent[];
}

/** No stored definitions: only built-ins and config.yaml. */
export const NO_MANAGED_DEFINITIONS: ManagedDefinitions = Object.freeze({ subagents: [], leadAgents: [] });

/** Reads every stored definition (a small, deployment-wide set) from the store. */
export async function readManagedDefinitions(store: AgentDefinitionStore): Promise<ManagedDefinitions> {
  const [subagents, leadAgents] = await Promise.all([store.listSubagents(), store.listLeadAgents()]);
  return { subagents, leadAgents };
}
