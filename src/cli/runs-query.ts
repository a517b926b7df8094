import { RunSearchStatusSchema, SA_RUN_STATUS, SA_THREAD_ID, SA_USER_ID, WORKFLOW_TYPES } from '../contracts';
import { CliExit, EXIT_USAGE } from './load-cli-config';

/** What `deerflow runs list` filters on; every value is optional. */
export interface RunsFilter {
  readonly status?: string;
  readonly user?: string;
  readonly thread?: string;
}

/**
 * Values that go into a visibility query unquoted-safe: no quote, backslash or space can reach the
 * query (Temporal's list filter has no parameter binding). Thread ids always qualify (their own rule
 * is narrower); user ids outside it cannot be filtered on.
 */
const QUERY_SAFE = /^[A-Za-z0-9_.@:+-]{1,128}$/;

function safeValue(flag: string, value: string): string {
  if (!QUERY_SAFE.test(value)) {
    throw new CliExit(`${flag}: must be 1-128 characters: letters, digits and _ . @ : + - (got ${JSON.stringify(value)})`, EXIT_USAGE);
  }
  return value;
}

/**
 * The visibility query of `deerflow runs list`: lead runs only, narrowed by each given filter.
 * @throws CliExit (usage) naming the flag when a value is not an allowed status or not query-safe.
 */
export function leadRunsQuery(filter: RunsFilter): string {
  const clauses = [`WorkflowType = '${WORKFLOW_TYPES.leadRun}'`];
  if (filter.status !== undefined) {
    const status = RunSearchStatusSchema.safeParse(filter.status);
    if (!status.success) throw new CliExit(`--status: must be one of ${RunSearchStatusSchema.options.join(', ')} (got ${JSON.stringify(filter.status)})`, EXIT_USAGE);
    clauses.push(`${SA_RUN_STATUS.name} = '${status.data}'`);
  }
  if (filter.user !== undefined) clauses.push(`${SA_USER_ID.name} = '${safeValue('--user', filter.user)}'`);
  if (filter.thread !== undefined) clauses.push(`${SA_THREAD_ID.name} = '${safeValue('--thread', filter.thread)}'`);
  return clauses.join(' AND ');
}
