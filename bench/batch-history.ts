/**
 * Where a batch item's time goes, from histories: workflow-task and activity queue and execution
 * times of a sample of one variant's items and of its parent, and how long an item lives. See
 * bench/README.md (Batch benchmark).
 */
import type { Client } from '@temporalio/client';
import { profileText, profileWorkflows } from './history';
import { fixed } from './stats';

/** Item histories fetched per variant: enough for stable medians, few enough to fetch in seconds. */
export const HISTORY_SAMPLE = 200;

/** One variant's workflows: the item (child) workflow type and the parent's. */
export interface BatchWorkflowTypes {
  readonly label: string;
  readonly itemType: string;
  readonly parentType: string;
  /**
   * Visibility query clauses that keep only the measured items and parents, where other runs (the
   * warm-up's) share the types, e.g. `WorkflowId STARTS_WITH '...'`.
   */
  readonly itemFilter?: string;
  readonly parentFilter?: string;
}

async function workflowIds(client: Client, workflowType: string, limit: number, filter?: string): Promise<string[]> {
  const ids: string[] = [];
  const query = `WorkflowType = '${workflowType}'${filter === undefined ? '' : ` AND ${filter}`}`;
  for await (const execution of client.workflow.list({ query })) {
    ids.push(execution.workflowId);
    if (ids.length >= limit) break;
  }
  return ids;
}

/** The report of one variant (its workflows must be the only ones of their types, or of their filters, on the server). */
export async function batchHistoryReport(client: Client, variant: BatchWorkflowTypes): Promise<string> {
  const itemIds = await workflowIds(client, variant.itemType, HISTORY_SAMPLE, variant.itemFilter);
  const items = await profileWorkflows(client, itemIds);
  const parent = await profileWorkflows(client, await workflowIds(client, variant.parentType, 1, variant.parentFilter));
  const itemLifeMs = items.workflows === 0 ? 0 : items.spanMs / items.workflows;
  const lines = [
    profileText(`${variant.label}, items (a sample of ${items.workflows})`, items, items.workflows, 'item'),
    profileText(`${variant.label}, parent (its last run)`, parent, 1, 'run'),
    `  ${variant.label}: an item lives ${fixed(itemLifeMs, 0)} ms on average (first to last event)`,
  ];
  return lines.join('\n');
}
