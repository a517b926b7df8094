import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Command, type Option } from 'commander';
import { z } from 'zod';
import type { StartBatchRequest, StartedBatch } from '../client';
import type { LoadedConfig } from '../config';
import { isBatchStoreError } from '../store';
import { parseBatchItemsFile, pointAtLines, type BatchItemsFile } from './batch-items-file';
import { progressOf } from './batch-progress';
import { createProgressView, type BatchProgressView } from './batch-progress-view';
import { batchExitCode, batchJsonOutput, readBatchOutcome, type BatchOutcome } from './batch-report';
import { formatBatchSummary, formatItemCounts, isFailedItem } from './batch-summary';
import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';
import { startRuntime, workflowUiUrl, type Runtime } from './runtime';
import { stopSignals } from './stop-signals';
import { validateCliInput } from './validate-cli-input';
import { waitForBatch, type BatchWaitOutcome } from './wait-for-batch';

/** Exit code after Ctrl-C (the batch was cancelled). */
const EXIT_INTERRUPTED = 130;

/** How long the cancel update or the link's describe may take; past it the client cancels in the store alone. */
const CALL_DEADLINE_MS = 5_000;

/** Where output goes, and the exit codes. */
const AFTER_HELP = `
Progress goes to stderr: a live bar on a terminal, else a plain line per tenth done (or every 5 s
while counts change; none with --json). The summary (or, with --json, only the JSON object) goes to
stdout. subagent_batches.enabled must be true in the config.

Exit codes:
  0    the batch completed and every item completed
  1    the batch ended with failed, timed-out or cancelled items (or did not complete)
  2    bad options, items file or config: nothing was started
  130  interrupted (Ctrl-C): the batch was cancelled`;

const positiveInteger = z
  .string()
  .trim()
  .regex(/^[1-9]\d*$/, 'must be a positive integer')
  .transform(Number)
  .refine(Number.isSafeInteger, 'must be a positive integer');

/** Keys are the flags, so a problem is reported under the flag's name. */
const FlagsSchema = z.object({
  '--subagent': z.string({ error: 'is required (the subagent type every item runs)' }).trim().min(1, 'must not be empty'),
  '--model': z.string().trim().min(1, 'must not be empty').optional(),
  '--user': z.string().trim().min(1, 'must not be empty'),
  '--title': z.string().optional(),
  '--max-live': positiveInteger.optional(),
  '--max-running': positiveInteger.optional(),
});
type Flags = z.output<typeof FlagsSchema>;

/** A batch request whose owner is known (the `--user`). */
type OwnedBatchRequest = StartBatchRequest & { readonly ownerId: string };

/** What commander hands the action. */
interface RawBatchOptions {
  config?: string;
  subagent?: string;
  model?: string;
  user: string;
  title?: string;
  maxLive?: string;
  maxRunning?: string;
  json: boolean;
}

function readItemsFile(file: string): BatchItemsFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliExit(`${file}: cannot read the items file (${err instanceof Error ? err.message : String(err)})`, EXIT_USAGE);
  }
  return parseBatchItemsFile(text, file);
}

function checkModel(loaded: LoadedConfig, model: string | undefined): void {
  const names = loaded.config.models.map((m) => m.name);
  if (model !== undefined && !names.includes(model)) {
    throw new CliExit(`--model: "${model}" is not a configured model (configured: ${names.join(', ') || 'none'})`, EXIT_USAGE);
  }
}

/**
 * `startBatch` validates the request before it stores anything; its validation errors are plain
 * Errors naming the field (`items.2.prompt: ...`), or the store's `invalid`. Those are usage errors,
 * pointed at the file's lines; anything else (the cluster, the database) is not.
 */
async function startOrExplain(runtime: Runtime, request: StartBatchRequest, file: string, lines: readonly number[]): Promise<StartedBatch> {
  try {
    return await runtime.deerflow.startBatch(request);
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    const fieldError = Object.getPrototypeOf(err) === Error.prototype && /^[\w.]+: /.test(err.message);
    if (!fieldError && !(isBatchStoreError(err) && err.code === 'invalid')) throw err;
    throw new CliExit(`Invalid batch, nothing was started:\n${pointAtLines(err.message, file, lines).join('\n')}`, EXIT_USAGE);
  }
}

/** Cancels the batch (Ctrl-C) and reports the counts it ended with. */
async function cancel(runtime: Runtime, started: StartedBatch, ownerId: string, log: (line: string) => void): Promise<void> {
  log(`interrupted: cancelling batch ${started.batchId} ...`);
  // The embedded dev server (in memory) stops on the same signal, so its workflow can take no
  // update: the store alone decides, at once, instead of after the deadline.
  const deadline = Date.now() + (runtime.embedded ? 0 : CALL_DEADLINE_MS);
  const result = await runtime.temporal.connection.withDeadline(deadline, () =>
    runtime.deerflow.cancelBatch(started.batchId, ownerId),
  );
  log(`cancelled ${result.cancelledItems} item(s): ${formatItemCounts(result.counts)}`);
}

/** The batch workflow's Temporal Web link (its latest run), or null when there is no UI or no answer. */
async function webLink(runtime: Runtime, started: StartedBatch): Promise<string | null> {
  const { uiUrl } = runtime;
  if (uiUrl === null) return null;
  const description = await runtime.temporal.connection.withDeadline(Date.now() + CALL_DEADLINE_MS, () => started.handle.describe()).catch(() => null);
  return description && workflowUiUrl(uiUrl, runtime.namespace, started.workflowId, description.runId);
}

/** The summary (or the JSON object) on stdout; with --json the link is a log line. */
function print(outcome: BatchOutcome, items: BatchItemsFile, json: boolean, link: string | null, log: (line: string) => void): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (json) {
    out(JSON.stringify(batchJsonOutput(outcome), null, 2));
    if (link) log(`Temporal Web: ${link}`);
    return;
  }
  formatBatchSummary(outcome, items.lines).forEach(out);
  if (link) out(`Temporal Web: ${link}`);
}

interface RunBatchOptions {
  readonly json: boolean;
  /** Resolves on Ctrl-C. */
  readonly interrupted: Promise<void>;
  readonly log: (line: string) => void;
}

/** Starts the batch, shows its progress until it ends (or cancels it on Ctrl-C), prints the outcome. */
async function runBatch(runtime: Runtime, request: OwnedBatchRequest, items: BatchItemsFile, file: string, options: RunBatchOptions): Promise<number> {
  const { log } = options;
  const started = await startOrExplain(runtime, request, file, items.lines);
  log(`batch ${started.batchId}: ${started.itemCount} items for ${request.subagentType}`);
  // With --json only a terminal gets a bar: plain progress lines would clutter a log of the run.
  const view: BatchProgressView | null = !options.json || process.stderr.isTTY ? createProgressView(process.stderr) : null;
  let outcome: BatchWaitOutcome;
  try {
    outcome = await waitForBatch(runtime, started, { interrupted: options.interrupted, onState: (state) => view?.update(progressOf(state)) });
  } finally {
    view?.stop();
  }
  if (outcome === 'interrupted') await cancel(runtime, started, request.ownerId, log);
  const report = await readBatchOutcome(runtime.deerflow, started.batchId, request.ownerId, options.json ? () => true : isFailedItem);
  // After Ctrl-C the embedded server is stopping, and its link would lead nowhere.
  const link = outcome === 'finished' ? await webLink(runtime, started) : null;
  print(report, items, options.json, link, log);
  return outcome === 'interrupted' ? EXIT_INTERRUPTED : batchExitCode(report);
}

/**
 * `deerflow batch FILE.jsonl`: starts a durable batch of one subagent over every item of the file,
 * shows its progress until it ends, and prints a summary or (with --json) one JSON object. Ctrl-C
 * cancels the batch. Returns the exit code (listed in the command's help).
 * @throws CliExit (usage) for bad flags, a bad file or a request `startBatch` refuses.
 */
export async function batchCommandAction(file: string, raw: RawBatchOptions): Promise<number> {
  const flags: Flags = validateCliInput(
    FlagsSchema,
    {
      '--subagent': raw.subagent,
      '--model': raw.model,
      '--user': raw.user,
      '--title': raw.title,
      '--max-live': raw.maxLive,
      '--max-running': raw.maxRunning,
    },
    'Invalid options',
  );
  const loaded = loadCliConfig(raw.config);
  const items = readItemsFile(file);
  checkModel(loaded, flags['--model']);
  const request: OwnedBatchRequest = {
    title: flags['--title'] ?? basename(file),
    subagentType: flags['--subagent'],
    items: [...items.items],
    ownerId: flags['--user'],
    maxLiveItems: flags['--max-live'],
    maxRunningItems: flags['--max-running'],
    modelName: flags['--model'],
  };
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // Installed before the slow start, so a Ctrl-C during it is not lost.
  const signals = stopSignals(log);
  try {
    const runtime = await startRuntime({ loaded, withWorkers: false, log });
    try {
      if (signals.arrived) {
        log('interrupted before the batch started: nothing was started');
        return EXIT_INTERRUPTED;
      }
      return await runBatch(runtime, request, items, file, { json: raw.json, interrupted: signals.received, log });
    } finally {
      await runtime.stop();
    }
  } finally {
    signals.dispose();
  }
}

/** The `batch` subcommand; `config` is the shared `--config` option. */
export function batchCommand(config: Option, setExitCode: (code: number) => void): Command {
  return new Command('batch')
    .description('run one subagent over every line of a JSONL file as a durable batch, and wait for it')
    .argument('<file>', 'JSONL items file: one {"prompt": "...", "acceptance_criteria"?: ["..."], "key"?: "..."} per line')
    .addOption(config)
    .option('--subagent <name>', 'subagent type every item runs (required)')
    .option('--model <name>', 'configured model for subagents that inherit their parent model')
    .option('--user <id>', 'owner of the batch', 'default')
    .option('--title <text>', 'batch title (default: the file name)')
    .option('--max-live <n>', 'item workflows alive at once (capped by subagent_batches.max_live_items_per_batch)')
    .option('--max-running <n>', 'items running at once (capped by subagent_batches.max_running_items_per_batch)')
    .option('--json', 'print one JSON object (see SCRIPTED_MODEL.md)', false)
    .addHelpText('after', AFTER_HELP)
    .action(async (file: string, raw: RawBatchOptions) => setExitCode(await batchCommandAction(file, raw)));
}
