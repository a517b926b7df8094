import type { LoadedConfig } from '../config';
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
      (event) => {
        if (!options.json) printer.event(event);
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
