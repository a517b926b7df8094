import http from 'node:http';
import { Connection } from '@temporalio/client';

/** What must answer before a dev server counts as started. */
export interface ReadinessTarget {
  /** gRPC frontend, `host:port`. */
  readonly address: string;
  readonly namespace: string;
  /** Custom search attributes that must already be registered in `namespace`. */
  readonly searchAttributeNames: readonly string[];
  /** Web UI base URL, or null when the UI is not expected. */
  readonly uiUrl: string | null;
}

/** Bounds of {@link waitUntilReady}. */
export interface WaitOptions {
  readonly timeoutMs: number;
  /** Aborting stops the wait at once and rejects with the signal's reason (e.g. the server process exited). */
  readonly signal?: AbortSignal;
  readonly intervalMs?: number;
}

const PROBE_TIMEOUT_MS = 2_000;

/**
 * Polls until the frontend answers `describeNamespace` for the namespace, the search attributes are
 * listed, and the UI answers an HTTP GET.
 *
 * @throws Error naming the last thing that was not ready when `timeoutMs` passes.
 */
export async function waitUntilReady(target: ReadinessTarget, opts: WaitOptions): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastProblem = 'not probed yet';
  for (;;) {
    opts.signal?.throwIfAborted();
    const probeSignals = [AbortSignal.timeout(PROBE_TIMEOUT_MS), ...(opts.signal ? [opts.signal] : [])];
    try {
      const problem = await probeOnce(target, AbortSignal.any(probeSignals));
      if (problem === null) return;
      lastProblem = problem;
    } catch (error) {
      opts.signal?.throwIfAborted();
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      throw new Error(`Temporal dev server at ${target.address} not ready after ${opts.timeoutMs} ms: ${lastProblem}`);
    }
    await delay(opts.intervalMs ?? 250);
  }
}

/** null when everything answers, else what did not. Throws when the frontend cannot be reached. */
async function probeOnce(target: ReadinessTarget, signal: AbortSignal): Promise<string | null> {
  // Lazy, without `ensureConnected` and without the SDK's retry interceptor: this loop is the retry,
  // so a call fails fast while nothing listens and the signal cancels it; and `close()` always runs
  // (a failed `Connection.connect` leaves its gRPC channel open).
  const connection = Connection.lazy({ address: target.address, interceptors: [] });
  try {
    const missing = await connection.withAbortSignal(signal, () => missingSearchAttributes(connection, target));
    if (missing.length > 0) return `search attributes not registered yet: ${missing.join(', ')}`;
  } finally {
    await connection.close();
  }
  if (target.uiUrl !== null && !(await answersHttpGet(target.uiUrl, signal))) {
    return `Web UI at ${target.uiUrl} not answering`;
  }
  return null;
}

async function missingSearchAttributes(connection: Connection, target: ReadinessTarget): Promise<string[]> {
  // describeNamespace first: it fails with NOT_FOUND until the namespace exists.
  await connection.workflowService.describeNamespace({ namespace: target.namespace });
  if (target.searchAttributeNames.length === 0) return [];
  const listed = await connection.operatorService.listSearchAttributes({ namespace: target.namespace });
  const registered = new Set(Object.keys(listed.customAttributes));
  return target.searchAttributeNames.filter((name) => !registered.has(name));
}

function answersHttpGet(url: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(url, { signal }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('error', () => resolve(false));
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
