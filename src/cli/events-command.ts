import { Command, type Option } from 'commander';
import { z } from 'zod';
import { DEFAULT_LIST_EVENTS_LIMIT } from '../store';
import { describeEvent } from './event-lines';
import { loadCliConfig } from './load-cli-config';
import { validateCliInput } from './validate-cli-input';
import { withStores } from './with-stores';

const OptionsSchema = z.object({
  thread: z.string().min(1).optional(),
  task: z.string().min(1).optional(),
  after: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_LIST_EVENTS_LIMIT),
  type: z.array(z.string().min(1)).optional(),
  json: z.boolean().default(false),
});

/**
 * `deerflow events RUN`: one page of a run's stored events (filters apply before the limit), as
 * lines or JSON lines; prints the `--after` value of the next page on stderr when there may be more.
 */
export function eventsCommand(config: Option): Command {
  return new Command('events')
    .description("page a run's stored events (subagent.start / step / end, tool.start / tool.end)")
    .argument('<run>', 'run id')
    .addOption(config)
    .option('--thread <id>', 'only the run in this thread (run ids may repeat across threads)')
    .option('--task <id>', 'only this task or lead tool call (the id the run gave it, e.g. 0.1)')
    .option('--after <seq>', 'only events after this seq (forward cursor)')
    .option('--limit <n>', `page size (default ${DEFAULT_LIST_EVENTS_LIMIT})`)
    .option('--type <event...>', 'only these event names')
    .option('--json', 'one JSON object per line')
    .action(async (runId: string, raw: Record<string, unknown>) => {
      const options = validateCliInput(OptionsSchema, raw, 'Invalid options');
      const page = await withStores(loadCliConfig(raw.config as string | undefined), (stores) =>
        stores.events.listEvents({ runId, threadId: options.thread, taskId: options.task, afterSeq: options.after, limit: options.limit, eventTypes: options.type }),
      );
      for (const event of page) {
        process.stdout.write(options.json ? `${JSON.stringify(event)}\n` : `${String(event.seq).padStart(6)} ${describeEvent(event)}\n`);
      }
      const last = page[page.length - 1];
      if (last !== undefined && page.length === options.limit) process.stderr.write(`more: --after ${last.seq}\n`);
    });
}
