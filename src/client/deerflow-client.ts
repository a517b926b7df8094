import { randomUUID } from 'node:crypto';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { AppConfig } from '../config';
import type { AgentDefinitionStore } from '../store/agent-definition-store';
import type { RunEventStore } from '../store';
import { streamRunEvents, type StreamRunEventsOptions } from './stream-run-events';
import {
  boundText,
  SA_AGENT,
  SA_THREAD_ID,
  SA_USER_ID,
  WORKFLOW_TASK_QUEUE,
  type LeadRunInput,
  type LeadRunState,
  type RunEvent,
} from '../contracts';
import { leadRunStateQuery, leadRunWorkflowId } from '../workflows/lead-run-messages';
import { readManagedDefinitions } from '../registry';
import { buildLeadRunInput, type RunRequest } from './build-run-input';

/** A started lead run. */
export interface StartedRun {
  readonly workflowId: string;
  readonly runId: string;
  readonly threadId: string;
  readonly input: LeadRunInput;
  readonly handle: WorkflowHandle;
}

export type StartRunRequest = Omit<RunRequest, 'runId' | 'threadId'> & { runId?: string; threadId?: string };

/** Starts and inspects lead runs on a Temporal cluster. */
export class DeerFlowClient {
  /**
   * @param agents - where administrators store agent definitions; without it only config.yaml
   *   definitions exist.
   */
  constructor(
    private readonly temporal: Client,
    private readonly config: AppConfig,
    private readonly agents: AgentDefinitionStore | null = null,
    private readonly events: RunEventStore | null = null,
  ) {}

  /**
   * Starts a lead run. Config and stored agent definitions are snapshotted into the workflow input
   * now: later edits never change a running run's policy, limits or catalog.
   */
  async startRun(request: StartRunRequest): Promise<StartedRun> {
    const managed = this.agents ? await readManagedDefinitions(this.agents) : undefined;
    const input = buildLeadRunInput(
      this.config,
      { ...request, runId: request.runId ?? `run_${randomUUID()}`, threadId: request.threadId ?? `thread_${randomUUID()}` },
      managed,
    );
    const workflowId = leadRunWorkflowId(input.threadId, input.runId);
    const handle = await this.temporal.workflow.start('leadRunWorkflow', {
      taskQueue: WORKFLOW_TASK_QUEUE,
      workflowId,
      args: [input],
      staticSummary: boundText(`${input.agentName} for ${input.userId}: ${input.message.replace(/\s+/g, ' ')}`, 200),
      typedSearchAttributes: [
        { key: SA_THREAD_ID, value: input.threadId },
        { key: SA_USER_ID, value: input.userId },
        { key: SA_AGENT, value: input.agentName },
      ],
    });
    return { workflowId, runId: input.runId, threadId: input.threadId, input, handle };
  }

  /**
   * The run's events (`subagent.start`, `subagent.step`, `subagent.end`) in order, live until the
   * run closes; resumable with `afterSeq`.
   * @throws Error when this client was built without an event store.
   */
  stream(workflowId: string, runId: string, options: StreamRunEventsOptions = {}): AsyncGenerator<RunEvent> {
    if (this.events === null) throw new Error('DeerFlowClient.stream needs the event store (pass it to the constructor)');
    return streamRunEvents(this.events, this.temporal.workflow.getHandle(workflowId), runId, options);
  }

  /** Live state of a run (works after it closed, too). */
  async getState(workflowId: string): Promise<LeadRunState> {
    return this.temporal.workflow.getHandle(workflowId).query(leadRunStateQuery);
  }
}
