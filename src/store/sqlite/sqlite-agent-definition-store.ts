import type { ManagedLeadAgent, ManagedLeadAgentInput, ManagedSubagent, ManagedSubagentInput } from '../../contracts/agent-definitions';
import type { AgentDefinitionStore } from '../agent-definition-store';
import {
  parseLeadAgentInput,
  parseSubagentInput,
  toManagedLeadAgent,
  toManagedSubagent,
  type DefinitionRow,
} from '../agent-definition-records';
import { AgentDefinitionError } from '../errors';
import { toStoredJson } from '../stored-json';
import type { SqliteDatabase } from './open-sqlite-database';

interface Row {
  name: string;
  definition: string;
  created_at: string;
  updated_at: string;
}

function fromRow(r: Row): DefinitionRow {
  return { name: r.name, definition: JSON.parse(r.definition) as unknown, createdAt: r.created_at, updatedAt: r.updated_at };
}

const now = (): string => new Date().toISOString();

/** SQLite implementation of {@link AgentDefinitionStore}. */
export class SqliteAgentDefinitionStore implements AgentDefinitionStore {
  // Reads prepared once: every subagent execution lists the subagents, every lead step the lead agents.
  readonly #listSubagents;
  readonly #getSubagent;
  readonly #listLeadAgents;
  readonly #getLeadAgent;

  constructor(private readonly db: SqliteDatabase) {
    this.#listSubagents = db.prepare<[], Row>('SELECT * FROM managed_subagents ORDER BY name');
    this.#getSubagent = db.prepare<[string], Row>('SELECT * FROM managed_subagents WHERE name = ?');
    this.#listLeadAgents = db.prepare<[], Row>('SELECT * FROM managed_lead_agents ORDER BY name');
    this.#getLeadAgent = db.prepare<[string], Row>('SELECT * FROM managed_lead_agents WHERE name = ?');
  }

  async listSubagents(): Promise<ManagedSubagent[]> {
    const rows = this.#listSubagents.all();
    return rows.map((r) => toManagedSubagent(fromRow(r)));
  }

  async getSubagent(name: string): Promise<ManagedSubagent | null> {
    const row = this.#getSubagent.get(name);
    return row ? toManagedSubagent(fromRow(row)) : null;
  }

  async createSubagent(input: ManagedSubagentInput): Promise<ManagedSubagent> {
    const def = parseSubagentInput(input);
    const at = now();
    const row = this.db
      .prepare(
        `INSERT INTO managed_subagents (name, definition, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO NOTHING RETURNING *`,
      )
      .get(def.name, toStoredJson(def), at, at) as Row | undefined;
    if (!row) throw AgentDefinitionError.alreadyExists('subagent', def.name);
    return toManagedSubagent(fromRow(row));
  }

  async updateSubagent(input: ManagedSubagentInput): Promise<ManagedSubagent> {
    const def = parseSubagentInput(input);
    const row = this.db
      .prepare('UPDATE managed_subagents SET definition = ?, updated_at = ? WHERE name = ? RETURNING *')
      .get(toStoredJson(def), now(), def.name) as Row | undefined;
    if (!row) throw AgentDefinitionError.notFound('subagent', def.name);
    return toManagedSubagent(fromRow(row));
  }

  async setSubagentEnabled(name: string, enabled: boolean): Promise<ManagedSubagent> {
    const row = this.db
      .prepare(`UPDATE managed_subagents SET definition = json_set(definition, '$.enabled', json(?)), updated_at = ? WHERE name = ? RETURNING *`)
      .get(JSON.stringify(enabled), now(), name) as Row | undefined;
    if (!row) throw AgentDefinitionError.notFound('subagent', name);
    return toManagedSubagent(fromRow(row));
  }

  async removeSubagent(name: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM managed_subagents WHERE name = ?').run(name).changes === 1;
  }

  async listLeadAgents(): Promise<ManagedLeadAgent[]> {
    const rows = this.#listLeadAgents.all();
    return rows.map((r) => toManagedLeadAgent(fromRow(r)));
  }

  async getLeadAgent(name: string): Promise<ManagedLeadAgent | null> {
    const row = this.#getLeadAgent.get(name);
    return row ? toManagedLeadAgent(fromRow(row)) : null;
  }

  async putLeadAgent(input: ManagedLeadAgentInput): Promise<ManagedLeadAgent> {
    const def = parseLeadAgentInput(input);
    const at = now();
    const row = this.db
      .prepare(
        `INSERT INTO managed_lead_agents (name, definition, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET definition = excluded.definition, updated_at = excluded.updated_at
         RETURNING *`,
      )
      .get(def.name, toStoredJson(def), at, at) as Row;
    return toManagedLeadAgent(fromRow(row));
  }

  async removeLeadAgent(name: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM managed_lead_agents WHERE name = ?').run(name).changes === 1;
  }
}
