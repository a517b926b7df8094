import type { StoredMessage } from '@langchain/core/messages';
import type { RunEvent } from '../../../src/contracts';
import type { ThreadOwnerRecord } from '../../../src/contracts';
import type { AgentDefinitionStore, RunEventStore, Stores, TaskProgressStore, TaskResultStore, ThreadMessageStore, ThreadOwnerStore, ThreadSummaryRecord, ThreadSummaryStore } from '../../../src/store';
import { assertBatchesImmutable } from './assert-immutable-batches';
import { Snapshots, clone, deepFreeze } from './snapshots';

/**
 * Wraps stores so a conformance test fails when a saved record changes behind the caller's back:
 * every record read must equal the first read of it, unless the contract allows the change
 * (`replaceMessage`, a rewritten result, an agent definition's mutable fields; `created_at` never
 * changes while the agent exists; batch and item rows change only until they are terminal).
 * Summaries never change once written (one per thread and coverage point), nor do thread owners.
 * A task's progress row is its latest by contract: only its inputs are frozen.
 * Inputs are deep-frozen, so a store that mutates them throws.
 */
export function assertImmutable(stores: Stores): Stores {
  const messages = new Snapshots<StoredMessage>('message');
  const events = new Snapshots<RunEvent>('event');
  const results = new Snapshots<string>('result');
  const summaries = new Snapshots<ThreadSummaryRecord>('summary');
  const owners = new Snapshots<ThreadOwnerRecord>('thread owner');
  const createdAt = new Snapshots<string>('created_at of agent');
  const msgKey = (threadId: string, key: string): string => `${threadId}/${key}`;
  const created = <T extends { name: string; created_at: string }>(kind: string, a: T): T => {
    createdAt.check(`${kind}:${a.name}`, a.created_at);
    return a;
  };

  const m: ThreadMessageStore = {
    putMessageIfAbsent: (record) => stores.messages.putMessageIfAbsent(deepFreeze(clone(record))),
    putMessagesIfAbsent: (records) => stores.messages.putMessagesIfAbsent(deepFreeze(clone(records))),
    replaceMessage: async (threadId, key, message) => {
      await stores.messages.replaceMessage(threadId, key, deepFreeze(clone(message)));
      messages.forget(msgKey(threadId, key));
    },
    getMessage: async (threadId, key) => {
      const msg = await stores.messages.getMessage(threadId, key);
      return msg === null ? null : messages.check(msgKey(threadId, key), msg);
    },
    listMessages: async (threadId) =>
      (await stores.messages.listMessages(threadId)).map((r) => ({ ...r, message: messages.check(msgKey(threadId, r.key), r.message) })),
  };
  const summary = (record: ThreadSummaryRecord): ThreadSummaryRecord => summaries.check(`${record.threadId}/${record.throughKey}`, record);
  const s: ThreadSummaryStore = {
    putSummaryIfAbsent: async (record) => {
      const put = await stores.summaries.putSummaryIfAbsent(deepFreeze(clone(record)));
      return { ...put, summary: summary(put.summary) };
    },
    latestSummary: async (threadId) => {
      const found = await stores.summaries.latestSummary(threadId);
      return found === null ? null : summary(found);
    },
  };
  const owner = (record: ThreadOwnerRecord | null): ThreadOwnerRecord | null => (record === null ? null : owners.check(record.threadId, record));
  const t: ThreadOwnerStore = {
    claim: async (threadId, ownerId, kind) => owners.check(threadId, await stores.threads.claim(threadId, ownerId, kind)),
    get: async (threadId) => owner(await stores.threads.get(threadId)),
  };
  const e: RunEventStore = {
    putBatch: async (batch) => (await stores.events.putBatch(deepFreeze(clone(batch)))).map((r) => events.check(String(r.seq), r)),
    listEvents: async (query) => (await stores.events.listEvents(deepFreeze({ ...query }))).map((r) => events.check(String(r.seq), r)),
  };
  const r: TaskResultStore = {
    putResult: async (entry) => {
      const ref = await stores.results.putResult(deepFreeze({ ...entry }));
      results.forget(ref);
      return ref;
    },
    getResult: async (ref) => {
      const text = await stores.results.getResult(ref);
      return text === null ? null : results.check(ref, text);
    },
  };
  const p: TaskProgressStore = {
    putProgress: (key, stored) => stores.progress.putProgress(deepFreeze({ ...key }), deepFreeze(clone(stored))),
    getProgress: (key) => stores.progress.getProgress(deepFreeze({ ...key })),
  };
  const a = stores.agents;
  const sub = <T extends { name: string; created_at: string }>(x: T): T => created('subagent', x);
  const lead = <T extends { name: string; created_at: string }>(x: T): T => created('lead', x);
  const agents: AgentDefinitionStore = {
    listSubagents: async () => (await a.listSubagents()).map(sub),
    getSubagent: async (name) => {
      const found = await a.getSubagent(name);
      return found === null ? null : sub(found);
    },
    createSubagent: async (input) => sub(await a.createSubagent(deepFreeze(clone(input)))),
    updateSubagent: async (input) => sub(await a.updateSubagent(deepFreeze(clone(input)))),
    setSubagentEnabled: async (name, enabled) => sub(await a.setSubagentEnabled(name, enabled)),
    removeSubagent: async (name) => {
      const removed = await a.removeSubagent(name);
      createdAt.forget(`subagent:${name}`);
      return removed;
    },
    listLeadAgents: async () => (await a.listLeadAgents()).map(lead),
    getLeadAgent: async (name) => {
      const found = await a.getLeadAgent(name);
      return found === null ? null : lead(found);
    },
    putLeadAgent: async (input) => lead(await a.putLeadAgent(deepFreeze(clone(input)))),
    removeLeadAgent: async (name) => {
      const removed = await a.removeLeadAgent(name);
      createdAt.forget(`lead:${name}`);
      return removed;
    },
  };
  return { messages: m, summaries: s, events: e, results: r, progress: p, agents, batches: assertBatchesImmutable(stores.batches), threads: t, checkpoints: stores.checkpoints, close: () => stores.close() };
}
