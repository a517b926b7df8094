import { createInterface } from 'node:readline/promises';
import type { LoadedConfig } from '../config';
import type { RunEvent } from '../contracts';
import type { Runtime } from './runtime';
import { LivePrinter } from './live-printer';
import { executeRun } from './execute-run';
import { buildRunReport } from './run-report';
import { startRuntime, workflowUiUrl } from './runtime';

export interface RunCommandOptions {
  readonly model?: string;
  readonly thread?: string;
  readonly user?: string;
  readonly agent?: string;
  readonly json: boolean;
}

/**
 * `deerflow run`: starts a lead run, waits for it, and prints either live progress lines or
 * (with --json) one JSON object on stdout. Logs go to stderr. Returns the process exit code.
 */
export async function runCommand(loaded: LoadedConfig, message: string, options: RunCommandOptions): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const runtime = await startRuntime({ loaded, withWorkers: false, log });
  try {
    const printer = new LivePrinter();
    const run = await executeRun(
      runtime,
      { message, modelName: options.model, threadId: options.thread, userId: options.user, agentName: options.agent },
      (event, started) => {
        if (!options.json) printer.event(event);
        if (event.event === 'clarification.asked') void answerFromTerminal(runtime, started.workflowId, event, options.json, log);
      },
    );
    printer.finish();
    const report = await buildRunReport(runtime.stores, run.state, run.started.workflowId);
    const link = runtime.uiUrl ? workflowUiUrl(runtime.uiUrl, runtime.namespace, run.started.workflowId, run.temporalRunId) : null;
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      if (link) log(`Temporal Web: ${link}`);
    } else {
      printer.line(`run ${report.status}: ${report.final_message ?? run.state.error ?? ''}`);
      if (link) printer.line(`Temporal Web: ${link}`);
    }
    return report.status === 'completed' ? 0 : 1;
  } finally {
    await runtime.stop();
  }
}

/**
 * The run asked the user a question (`ask_clarification`): on a terminal, prompt for the answer and
 * send it; elsewhere (pipes, --json) say how to answer, since nobody can type here.
 */
async function answerFromTerminal(runtime: Runtime, workflowId: string, event: RunEvent, json: boolean, log: (line: string) => void): Promise<void> {
  const question = String((event.payload as { question?: unknown }).question ?? '');
  if (json || !process.stdin.isTTY) {
    log(`the run is waiting for an answer to: ${question} (POST .../answer on the gateway, or DeerFlowClient.answer)`);
    return;
  }
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await terminal.question('your answer> ')).trim();
    if (answer !== '') await runtime.deerflow.answer(workflowId, answer);
  } catch (err) {
    log(`could not send the answer: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    terminal.close();
  }
}
