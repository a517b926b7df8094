import type { Pool } from 'pg';
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

interface Row {
  name: string;
  definition: unknown;
  created_at: Date;
  updated_at: Date;
}

function fromRow(r: Row): DefinitionRow {
  return { name: r.name, definition: r.definition, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() };
}

const now = (): string => new Date().toISOString();

// COLLATE "C": list by code point like SQLite, whatever locale the database was created with
// (en_US ignores "-" and "_" when sorting).
const BY_NAME = 'ORDER BY name COLLATE "C"';

/** PostgreSQL implementation of {@link AgentDefinitionStore}; definitions are `jsonb`. */
export class PostgresAgentDefinitionStore implements AgentDefinitionStore {
  constructor(private readonly pool: Pool) {}

  async listSubagents(): Promise<ManagedSubagent[]> {
    const res = await this.pool.query<Row>(`SELECT * FROM managed_subagents ${BY_NAME}`);
    return res.rows.map((r) => toManagedSubagent(fromRow(r)));
  }

  async getSubagent(name: string): Promise<ManagedSubagent | null> {
    const res = await this.pool.query<Row>('SELECT * FROM managed_subagents WHERE name = $1', [name]);
    return res.rows[0] ? toManagedSubagent(fromRow(res.rows[0])) : null;
  }

  async createSubagent(input: ManagedSubagentInput): Promise<ManagedSubagent> {
    const def = parseSubagentInput(input);
    const at = now();
    const res = await this.pool.query<Row>(
      `INSERT INTO managed_subagents (name, definition, created_at, updated_at) VALUES ($1, $2::jsonb, $3, $3)
       ON CONFLICT (name) DO NOTHING RETURNING *`,
      [def.name, toStoredJson(def), at],
    );
    if (!res.rows[0]) throw AgentDefinitionError.alreadyExists('subagent', def.name);
    return toManagedSubagent(fromRow(res.rows[0]));
  }

  async updateSubagent(input: ManagedSubagentInput): Promise<ManagedSubagent> {
    const def = parseSubagentInput(input);
    const res = await this.pool.query<Row>(
      'UPDATE managed_subagents SET definition = $1::jsonb, updated_at = $2 WHERE name = $3 RETURNING *',
      [toStoredJson(def), now(), def.name],
    );
    if (!res.rows[0]) throw AgentDefinitionError.notFound('subagent', def.name);
    return toManagedSubagent(fromRow(res.rows[0]));
  }

  async setSubagentEnabled(name: string, enabled: boolean): Promise<ManagedSubagent> {
    const res = await this.pool.query<Row>(
      `UPDATE managed_subagents SET definition = jsonb_set(definition, '{enabled}', to_jsonb($1::boolean)), updated_at = $2
       WHERE name = $3 RETURNING *`,
      [enabled, now(), name],
    );
    if (!res.rows[0]) throw AgentDefinitionError.notFound('subagent', name);
    return toManagedSubagent(fromRow(res.rows[0]));
  }

  async removeSubagent(name: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM managed_subagents WHERE name = $1', [name])).rowCount === 1;
  }

  async listLeadAgents(): Promise<ManagedLeadAgent[]> {
    const res = await this.pool.query<Row>(`SELECT * FROM managed_lead_agents ${BY_NAME}`);
    return res.rows.map((r) => toManagedLeadAgent(fromRow(r)));
  }

  async getLeadAgent(name: string): Promise<ManagedLeadAgent | null> {
    const res = await this.pool.query<Row>('SELECT * FROM managed_lead_agents WHERE name = $1', [name]);
    return res.rows[0] ? toManagedLeadAgent(fromRow(res.rows[0])) : null;
  }

  async putLeadAgent(input: ManagedLeadAgentInput): Promise<ManagedLeadAgent> {
    const def = parseLeadAgentInput(input);
    const res = await this.pool.query<Row>(
      `INSERT INTO managed_lead_agents (name, definition, created_at, updated_at) VALUES ($1, $2::jsonb, $3, $3)
       ON CONFLICT (name) DO UPDATE SET definition = EXCLUDED.definition, updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [def.name, toStoredJson(def), now()],
    );
    return toManagedLeadAgent(fromRow(res.rows[0]!));
  }

  async removeLeadAgent(name: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM managed_lead_agents WHERE name = $1', [name])).rowCount === 1;
  }
}
