import { Session, type Profiler } from 'node:inspector';

/** The CPU profile of one JavaScript thread of this process. */
export interface ThreadProfile {
  /** `main`, or a worker thread (the SDK runs workflow code in worker threads). */
  readonly thread: 'main' | 'worker';
  /** Linux thread id (to match the thread's CPU time), or null where `/proc` is not available. */
  readonly tid: number | null;
  readonly profile: Profiler.Profile;
}

interface WorkerTarget {
  readonly sessionId: string;
  tid: number | null;
}

interface InspectorReply {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string };
}

/** How long attaching to the existing worker threads may take (their attach events come after `NodeWorker.enable`). */
const ATTACH_SETTLE_MS = 300;

const READ_THREAD_ID = `(() => { try { return Number(require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]); } catch { return null; } })()`;

/**
 * V8's sampling profiler on the main thread and on every worker thread, through one inspector
 * session of this process (`NodeWorker` relays the workers' `Profiler` commands), so one
 * repetition can be profiled without restarting the benchmark under `--cpu-prof`.
 */
export class CpuProfiler {
  private readonly session = new Session();
  private readonly workers: WorkerTarget[] = [];
  private readonly pending = new Map<number, (reply: InspectorReply) => void>();
  private nextId = 0;

  private constructor(private readonly intervalUs: number) {}

  /** Connects, attaches to the worker threads running now and learns their thread ids. */
  static async attach(intervalUs: number): Promise<CpuProfiler> {
    const profiler = new CpuProfiler(intervalUs);
    await profiler.connect();
    return profiler;
  }

  private async connect(): Promise<void> {
    this.session.connect();
    this.session.on('NodeWorker.attachedToWorker', ({ params }) => {
      this.workers.push({ sessionId: params.sessionId, tid: null });
    });
    this.session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
      const reply = JSON.parse(params.message) as Partial<InspectorReply>;
      if (typeof reply.id !== 'number') return;
      this.pending.get(reply.id)?.(reply as InspectorReply);
      this.pending.delete(reply.id);
    });
    await this.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
    await new Promise((resolve) => setTimeout(resolve, ATTACH_SETTLE_MS));
    for (const worker of this.workers) {
      const reply = (await this.toWorker(worker, 'Runtime.evaluate', { expression: READ_THREAD_ID, includeCommandLineAPI: true, returnByValue: true })) as {
        result?: { value?: unknown };
      };
      worker.tid = typeof reply.result?.value === 'number' ? reply.result.value : null;
    }
  }

  /** Worker threads attached (the SDK's workflow threads, one per workflow worker). */
  get workerCount(): number {
    return this.workers.length;
  }

  async start(): Promise<void> {
    await this.post('Profiler.enable');
    await this.post('Profiler.setSamplingInterval', { interval: this.intervalUs });
    await this.post('Profiler.start');
    for (const worker of this.workers) {
      await this.toWorker(worker, 'Profiler.enable');
      await this.toWorker(worker, 'Profiler.setSamplingInterval', { interval: this.intervalUs });
      await this.toWorker(worker, 'Profiler.start');
    }
  }

  async stop(): Promise<ThreadProfile[]> {
    const main = (await this.post('Profiler.stop')) as Profiler.StopReturnType;
    const profiles: ThreadProfile[] = [{ thread: 'main', tid: process.pid, profile: main.profile }];
    for (const worker of this.workers) {
      const stopped = (await this.toWorker(worker, 'Profiler.stop')) as Profiler.StopReturnType;
      profiles.push({ thread: 'worker', tid: worker.tid, profile: stopped.profile });
    }
    return profiles;
  }

  close(): void {
    this.session.disconnect();
  }

  private post(method: string, params: object = {}): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.session.post(method, params, (err, result) => (err ? reject(err) : resolve(result)));
    });
  }

  private async toWorker(worker: WorkerTarget, method: string, params: object = {}): Promise<unknown> {
    const id = ++this.nextId;
    const reply = new Promise<InspectorReply>((resolve) => this.pending.set(id, resolve));
    await this.post('NodeWorker.sendMessageToWorker', { sessionId: worker.sessionId, message: JSON.stringify({ id, method, params }) });
    const { result, error } = await reply;
    if (error) throw new Error(`worker thread ${method}: ${error.message}`);
    return result;
  }
}
