import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RunNotWaitingError, TaskNotCancellableError, type StartRunRequest } from '../client';
import { GatewayError, GatewayErrorCode } from './errors';
import type { GatewayDeps } from './gateway-deps';
import { callerOf } from './request-caller';
import { findRun } from './run-lookup';
import { assertThreadAvailable, threadClaimError } from './thread-access';
import { AnswerBodySchema, ExtendBodySchema, parseInput, RunParamsSchema, StartRunBodySchema, TaskParamsSchema } from './validation';

/** `201` body of `POST /api/runs`. */
export interface StartRunResponse {
  readonly run_id: string;
  readonly thread_id: string;
  readonly workflow_id: string;
}

/** Path of a run's resource. */
export function runPath(threadId: string, runId: string): string {
  return `/api/threads/${encodeURIComponent(threadId)}/runs/${encodeURIComponent(runId)}`;
}

// DeerFlowClient validates with camelCase names; callers sent the snake_case ones.
const REQUEST_FIELDS: Readonly<Record<string, string>> = {
  message: 'message',
  threadId: 'thread_id',
  userId: 'user_id',
  agentName: 'agent',
  modelName: 'model',
  maxConcurrent: 'max_concurrent',
  maxTotal: 'max_total',
};

/**
 * Turns what `startRun` rejects before anything is started into a 400 naming the field. The
 * client throws a ZodError for the request, and a plain Error worded `agent: ...` / `model: ...`
 * when the agent or model is not configured (see `buildLeadRunInput`).
 */
function requestError(err: unknown): GatewayError | null {
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    const head = issue?.path[0];
    const field = typeof head === 'string' ? (REQUEST_FIELDS[head] ?? head) : 'body';
    return GatewayError.badRequest(field, issue?.message ?? 'is invalid');
  }
  if (err instanceof Error && err.constructor === Error) {
    const match = /^(agent|model): (.*)$/s.exec(err.message);
    if (match?.[1] !== undefined && match[2] !== undefined) return GatewayError.badRequest(match[1], match[2]);
  }
  if (err instanceof WorkflowExecutionAlreadyStartedError) return new GatewayError(GatewayErrorCode.Conflict, 'the run already exists');
  return null;
}

/** `POST /api/runs`, `GET /api/threads/:threadId/runs/:runId`, `POST .../cancel`, `POST .../tasks/:taskId/cancel`. */
export function registerRunRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.post('/api/runs', async (request, reply) => {
    const caller = callerOf(request);
    const body = parseInput(StartRunBodySchema, request.body, 'body');
    if (body.thread_id !== undefined) await assertThreadAvailable(deps, body.thread_id, caller);
    const start: StartRunRequest = {
      message: body.message,
      threadId: body.thread_id,
      // A token decides who the caller is; only the trusted loopback operator may act for others.
      userId: caller.scoped ? caller.userId : (body.user_id ?? caller.userId),
      agentName: body.agent,
      modelName: body.model,
      maxConcurrent: body.max_concurrent,
      maxTotal: body.max_total,
    };
    let started;
    try {
      started = await deps.deerflow.startRun(start);
    } catch (err) {
      throw threadClaimError(err, caller, false) ?? requestError(err) ?? err;
    }
    const response: StartRunResponse = { run_id: started.runId, thread_id: started.threadId, workflow_id: started.workflowId };
    return reply.code(201).header('location', runPath(started.threadId, started.runId)).send(response);
  });

  app.get('/api/threads/:threadId/runs/:runId', async (request) => {
    const params = parseInput(RunParamsSchema, request.params, 'path');
    const run = await findRun(deps.temporal, params.threadId, params.runId, callerOf(request));
    const state = await deps.deerflow.getState(run.workflowId);
    return {
      run_id: run.runId,
      thread_id: run.threadId,
      workflow_id: run.workflowId,
      user_id: run.userId,
      workflow_status: run.status,
      state,
    };
  });

  app.post('/api/threads/:threadId/runs/:runId/cancel', async (request, reply) => {
    const params = parseInput(RunParamsSchema, request.params, 'path');
    const run = await findRun(deps.temporal, params.threadId, params.runId, callerOf(request));
    const closed = new GatewayError(GatewayErrorCode.Conflict, `run "${run.runId}" is not running`);
    if (run.status !== 'RUNNING') throw closed;
    try {
      await run.handle.cancel();
    } catch (err) {
      // It closed between the lookup and the cancel request.
      if (err instanceof WorkflowNotFoundError) throw closed;
      throw err;
    }
    return reply.code(202).send({ run_id: run.runId, thread_id: run.threadId, workflow_id: run.workflowId, status: 'cancel_requested' });
  });

  app.post('/api/threads/:threadId/runs/:runId/answer', async (request) => {
    const params = parseInput(RunParamsSchema, request.params, 'path');
    const body = parseInput(AnswerBodySchema, request.body, 'body');
    const run = await findRun(deps.temporal, params.threadId, params.runId, callerOf(request));
    const notWaiting = (message: string) => new GatewayError(GatewayErrorCode.Conflict, message);
    if (run.status !== 'RUNNING') throw notWaiting(`run "${run.runId}" is not running`);
    try {
      const answered = await deps.deerflow.answer(run.workflowId, body.answer);
      return { run_id: run.runId, thread_id: run.threadId, call_id: answered.callId, question: answered.question, status: 'answered' };
    } catch (err) {
      if (err instanceof RunNotWaitingError) throw notWaiting(err.message);
      if (err instanceof WorkflowNotFoundError) throw notWaiting(`run "${run.runId}" is not running`);
      throw err;
    }
  });

  app.post('/api/threads/:threadId/runs/:runId/tasks/:taskId/extend', async (request) => {
    const params = parseInput(TaskParamsSchema, request.params, 'path');
    const body = parseInput(ExtendBodySchema, request.body, 'body');
    const run = await findRun(deps.temporal, params.threadId, params.runId, callerOf(request));
    if (run.status !== 'RUNNING') throw new GatewayError(GatewayErrorCode.Conflict, `run "${run.runId}" is not running`);
    try {
      const extended = await deps.deerflow.extendTask(run.workflowId, params.taskId, body.seconds);
      return { run_id: run.runId, thread_id: run.threadId, task_id: extended.taskId, timeout_seconds: extended.timeoutSeconds, extended_seconds: extended.extendedSeconds };
    } catch (err) {
      if (err instanceof TaskNotCancellableError) throw new GatewayError(GatewayErrorCode.Conflict, err.message);
      if (err instanceof WorkflowNotFoundError) throw new GatewayError(GatewayErrorCode.Conflict, `run "${run.runId}" is not running`);
      throw err;
    }
  });

  app.post('/api/threads/:threadId/runs/:runId/tasks/:taskId/cancel', async (request) => {
    const params = parseInput(TaskParamsSchema, request.params, 'path');
    const run = await findRun(deps.temporal, params.threadId, params.runId, callerOf(request));
    if (run.status !== 'RUNNING') throw new GatewayError(GatewayErrorCode.Conflict, `run "${run.runId}" is not running`);
    try {
      const ended = await deps.deerflow.cancelTask(run.workflowId, params.taskId);
      return { run_id: run.runId, thread_id: run.threadId, task_id: ended.taskId, status: ended.status };
    } catch (err) {
      if (err instanceof TaskNotCancellableError) throw new GatewayError(GatewayErrorCode.Conflict, err.message);
      if (err instanceof WorkflowNotFoundError) throw new GatewayError(GatewayErrorCode.Conflict, `run "${run.runId}" is not running`);
      throw err;
    }
  });
}
