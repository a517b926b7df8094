import { readFileSync } from 'node:fs';
import { isGrpcServiceError } from '@temporalio/client';
import { historyFromJSON, type History } from '@temporalio/common/lib/proto-utils';
import { ReplayError } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { Command, type Option } from 'commander';
import { z } from 'zod';
import { ReplayJsonOutputSchema, type ReplayJsonOutput, type ReplayOutcome } from '../contracts';
import { replayWorkflowHistory } from '../worker/replay-history';
import { withClusterRuntime } from './cluster-runtime';
import { CliExit, EXIT_USAGE } from './load-cli-config';
import { validateCliInput } from './validate-cli-input';

const ArgsSchema = z
  .object({
    workflowId: z.string().min(1).optional(),
    file: z.string().min(1).optional(),
    runId: z.string().min(1).optional(),
    json: z.boolean().default(false),
    config: z.string().optional(),
  })
  .refine((args) => args.workflowId !== undefined || args.file !== undefined, {
    path: ['workflow-id'],
    message: 'give a workflow id to fetch from the cluster, or --file HISTORY.json',
  })
  .refine((args) => args.runId === undefined || args.file === undefined, {
    path: ['--run-id'],
    message: 'picks a run on the cluster; a --file history is one run already',
  });

/** A history to replay and what it is. */
interface SourcedHistory {
  readonly history: History;
  readonly workflowId: string;
  readonly source: ReplayJsonOutput['source'];
}

/**
 * `deerflow replay <workflow-id> | --file HISTORY.json`: replays one workflow history on the
 * current workflow code, the check to run before deploying a workflow change. Exit 0 when the code
 * reproduces the history, 1 when it diverges (the message names the event and the command), 2 for
 * bad arguments, an unreadable file or an unknown workflow.
 */
export function replayCommand(config: Option, setExitCode: (code: number) => void): Command {
  return new Command('replay')
    .description('replay a workflow history on the current workflow code (exit 0: it reproduces the history, 1: it diverges)')
    .argument(
      '[workflow-id]',
      'workflow whose history to fetch from the cluster (needs TEMPORAL_ADDRESS); with --file, the id the history ran under (default: the id it names)',
    )
    .option('--file <history.json>', 'replay this exported history (`temporal workflow show -o json`) instead of fetching one')
    .option('--run-id <id>', 'the run of the workflow to fetch (default: its latest run)')
    .option('--json', 'print one JSON object { workflow_id, run_id, workflow_type, source, events, outcome, error }', false)
    .addOption(config)
    .action(async (workflowId: string | undefined, raw: Record<string, unknown>) => {
      const args = validateCliInput(ArgsSchema, { ...raw, workflowId }, 'Invalid arguments');
      const sourced =
        args.file === undefined
          ? await fetchClusterHistory(args.workflowId!, args.runId, args.config)
          : readHistoryFile(args.file, args.workflowId);
      const output = ReplayJsonOutputSchema.parse(await replay(sourced));
      if (args.json) process.stdout.write(`${JSON.stringify(output)}\n`);
      else if (output.outcome === 'replayed') process.stdout.write(`${describe(output)}: the current workflow code reproduces it\n`);
      else process.stderr.write(`${describe(output)} ${output.outcome === 'diverged' ? 'diverges from' : 'fails to replay on'} the current workflow code:\n${output.error}\n`);
      setExitCode(output.outcome === 'replayed' ? 0 : 1);
    });
}

async function fetchClusterHistory(workflowId: string, runId: string | undefined, configPath: string | undefined): Promise<SourcedHistory> {
  let history: History | undefined;
  await withClusterRuntime('deerflow replay', configPath, async (runtime) => {
    try {
      history = await runtime.temporal.workflow.getHandle(workflowId, runId).fetchHistory();
    } catch (err) {
      // Unknown ids and malformed run ids are the caller's to fix, like a missing file.
      if (isGrpcServiceError(err)) throw new CliExit(`${workflowId}${runId === undefined ? '' : ` (run ${runId})`}: ${err.details || err.message}`, EXIT_USAGE);
      throw err;
    }
  });
  return { history: history!, workflowId, source: 'cluster' };
}

/** Reads Temporal's JSON history export. @throws CliExit (usage) naming the file and what is wrong with it. */
function readHistoryFile(file: string, givenWorkflowId: string | undefined): SourcedHistory {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'no such file' : err instanceof SyntaxError ? `not valid JSON (${err.message})` : String(err);
    throw new CliExit(`${file}: ${problem}`, EXIT_USAGE);
  }
  const notHistory = (why: string) => new CliExit(`${file}: not a workflow history (${why}); export one with \`temporal workflow show -w ID -o json\``, EXIT_USAGE);
  if (!z.object({ events: z.array(z.looseObject({})).min(1) }).safeParse(json).success) throw notHistory('expected { "events": [ ... ] }');
  let history: History;
  try {
    history = historyFromJSON(json);
  } catch (err) {
    throw notHistory(err instanceof Error ? err.message : String(err));
  }
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started) throw notHistory('its first event is not WorkflowExecutionStarted');
  const workflowId = givenWorkflowId ?? started.workflowId;
  // Servers before Temporal 1.21 did not record the id in the start event.
  if (!workflowId) throw new CliExit(`${file}: the history does not name its workflow id; pass it: deerflow replay WORKFLOW_ID --file ${file}`, EXIT_USAGE);
  return { history, workflowId, source: 'file' };
}

async function replay({ history, workflowId, source }: SourcedHistory): Promise<ReplayJsonOutput> {
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const verdict = async (): Promise<{ outcome: ReplayOutcome; error: string | null }> => {
    try {
      await replayWorkflowHistory(history, workflowId);
      return { outcome: 'replayed', error: null };
    } catch (err) {
      if (err instanceof DeterminismViolationError) return { outcome: 'diverged', error: err.message };
      if (err instanceof ReplayError) return { outcome: 'failed', error: err.message };
      throw err;
    }
  };
  return {
    workflow_id: workflowId,
    run_id: started?.originalExecutionRunId || null,
    workflow_type: started?.workflowType?.name || null,
    source,
    events: history.events?.length ?? 0,
    ...(await verdict()),
  };
}

function describe(output: ReplayJsonOutput): string {
  return `${output.workflow_type ?? 'workflow'} ${output.workflow_id} (run ${output.run_id ?? 'unknown'}, ${output.events} events)`;
}
