import { join } from 'node:path';
import { loadConfig, type LoadedConfig } from '../config';
import { findProjectRoot } from '../devserver';
import { LivePrinter } from './live-printer';
import { executeRun } from './execute-run';
import { buildRunReport } from './run-report';
import { startRuntime, workflowUiUrl } from './runtime';

/** What the demo asks the lead; the bundled scenario writes a plan itself, then delegates two parallel scopes. */
export const DEMO_MESSAGE =
  'Write a short plan to plan.md, then create three note files under notes/ in the workspace and count them; independently, report the host kernel name and the current UTC year.';

/** The bundled offline demo config (scripted model). */
export function demoConfigPath(): string {
  return join(findProjectRoot(), 'scenarios', 'demo', 'config.yaml');
}

/**
 * `npm start`: the configured real model when one is set, else the bundled scripted demo; on the
 * embedded dev server unless TEMPORAL_ADDRESS is set. Prints steps as they happen and the run's
 * Temporal Web link. Returns the exit code.
 */
export async function startCommand(userConfig: LoadedConfig, options: { wait: boolean } = { wait: false }): Promise<number> {
  const loaded = userConfig.config.models.length > 0 ? userConfig : loadConfig({ path: demoConfigPath() });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(loaded === userConfig ? `deerflow demo on your config (${loaded.path ?? 'defaults'})` : 'deerflow demo on the bundled scripted model');
  const runtime = await startRuntime({ loaded, withWorkers: true, log: out });
  try {
    out(`lead: ${DEMO_MESSAGE}`);
    const printer = new LivePrinter();
    const run = await executeRun(runtime, { message: DEMO_MESSAGE }, (event) => printer.event(event));
    printer.finish();
    const report = await buildRunReport(runtime.stores, run.state, run.started.workflowId);
    const done = report.tasks.filter((t) => t.status === 'completed').length;
    const direct = report.lead_tools.filter((t) => t.status === 'completed').length;
    out(`run ${report.status} with ${direct}/${report.lead_tools.length} direct tool calls and ${done}/${report.tasks.length} subagent tasks completed`);
    out(`final answer:\n${report.final_message ?? run.state.error ?? '(none)'}`);
    if (runtime.uiUrl) {
      out(`Temporal Web: ${workflowUiUrl(runtime.uiUrl, runtime.namespace, run.started.workflowId, run.temporalRunId)}`);
    }
    if (runtime.embedded && options.wait) {
      out('The embedded Temporal server and its Web UI stay up until you press Ctrl-C.');
      await untilInterrupted();
    } else if (runtime.embedded) {
      out('(The embedded server stops now; `npm start -- --wait` keeps it and the Web UI running.)');
    }
    return report.status === 'completed' && done > 0 ? 0 : 1;
  } finally {
    await runtime.stop();
  }
}

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
