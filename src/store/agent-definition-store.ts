import type {
  ManagedLeadAgent,
  ManagedLeadAgentInput,
  ManagedSubagent,
  ManagedSubagentInput,
} from '../contracts/agent-definitions';

/**
 * Agent definitions created at run time by an administrator: managed subagents and lead agents.
 * Deployment-wide (not per user). Inputs are validated with the contract schemas before anything
 * is written; a rejected input changes nothing.
 */
export interface AgentDefinitionStore {
  listSubagents(): Promise<ManagedSubagent[]>;
  getSubagent(name: string): Promise<ManagedSubagent | null>;
  /** @throws AgentDefinitionError `already_exists` when the name is taken, `invalid` on bad input. */
  createSubagent(input: ManagedSubagentInput): Promise<ManagedSubagent>;
  /** Replaces every field but the name and `created_at`. @throws `not_found`, `invalid`. */
  updateSubagent(input: ManagedSubagentInput): Promise<ManagedSubagent>;
  /** @throws AgentDefinitionError `not_found`. */
  setSubagentEnabled(name: string, enabled: boolean): Promise<ManagedSubagent>;
  /** Returns false when there was nothing to remove. */
  removeSubagent(name: string): Promise<boolean>;

  listLeadAgents(): Promise<ManagedLeadAgent[]>;
  getLeadAgent(name: string): Promise<ManagedLeadAgent | null>;
  /** Creates or replaces a lead agent definition. @throws `invalid`. */
  putLeadAgent(input: ManagedLeadAgentInput): Promise<ManagedLeadAgent>;
  removeLeadAgent(name: string): Promise<boolean>;
}
