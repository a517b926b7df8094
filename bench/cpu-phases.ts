/**
 * Attribution of CPU profile samples to the phases of a deerflow subagent task, by call stack.
 *
 * A sample belongs to a phase by four passes over its stack, first hit wins:
 * 0. `leafCallers`: the caller of a native leaf (a SQLite transaction's own BEGIN or COMMIT, where
 *    the thread waits for the WAL sync, is that phase wherever the transaction runs);
 * 1. `claims`: the OUTERMOST frame matching one (everything called from `createAgent`, from
 *    `buildSubagentMiddleware`, from a lead activity ... is that phase's cost);
 * 2. `nearest`: the frame NEAREST the leaf matching one (a middleware hook called by LangGraph is
 *    the hook's cost, not the graph's);
 * 3. `packages`: the package of the frame nearest the leaf that is not Node's own code (LangGraph,
 *    the Temporal SDK, ...), else of Node's own frames (promise hooks called from the microtask
 *    queue have no caller of ours).
 * Async continuations start a new stack at the microtask queue, so each rule also names the
 * frames a continuation resumes in (a checkpoint write resumes inside the saver's `put`).
 */
import type { Profiler } from 'node:inspector';

/** A phase of the breakdown; `group` collects phases for a subtotal row. */
export interface Phase {
  readonly key: string;
  readonly label: string;
  readonly group?: string;
}

interface FrameRule {
  readonly phase: string;
  /** Function names (exact); absent: any function. */
  readonly names?: readonly string[];
  /** Matches the script url; absent: any url. */
  readonly url?: RegExp;
}

/** Which phases a thread's samples fall into and how to find them. */
export interface PhaseRules {
  readonly phases: readonly Phase[];
  readonly leafCallers: readonly FrameRule[];
  readonly claims: readonly FrameRule[];
  readonly nearest: readonly FrameRule[];
  readonly packages: readonly FrameRule[];
  /** Samples matching no rule. */
  readonly fallback: string;
}

const GC = { key: 'gc', label: 'garbage collector (this thread)' };
const NATIVE = { key: 'native', label: 'native code without a JavaScript frame ("(program)")' };

const ACTIVITIES = 'activities/';
const src = (path: string) => new RegExp(`/src/${path}`);
const pkg = (name: string) => new RegExp(`/node_modules/${name}/`);

/** Phases of the main thread: `runSubagent` and everything else the workers and the client run in JavaScript. */
export const MAIN_THREAD_RULES: PhaseRules = {
  phases: [
    { key: 'build.input', group: 'agent build', label: 'agent build: definition and task prompt (agents store, lead message)' },
    { key: 'build.model', group: 'agent build', label: 'agent build: chat model' },
    { key: 'build.prompt', group: 'agent build', label: 'agent build: system prompt' },
    { key: 'build.skills', group: 'agent build', label: 'agent build: skills' },
    { key: 'build.tools', group: 'agent build', label: 'agent build: tools' },
    { key: 'build.middleware', group: 'agent build', label: 'agent build: middleware chain' },
    { key: 'build.agent', group: 'agent build', label: 'agent build: pooled agent (shape key, pool; createAgent when one is built)' },
    { key: 'run.graph', group: 'graph run', label: 'graph run: LangGraph / LangChain (pregel loop, runnables, callbacks)' },
    { key: 'run.middleware', group: 'graph run', label: 'graph run: deerflow middleware hooks, receipts, spans' },
    { key: 'run.model', group: 'graph run', label: 'graph run: scripted model' },
    { key: 'checkpoints', label: 'checkpoints (SQLite saver: take over, put, putWrites, delete)' },
    { key: 'steps', label: 'step events (capture, StepEventBuffer, run-event store)' },
    { key: 'progress', label: 'progress (heartbeats, taskProgress signals, usage callback)' },
    { key: 'result', label: 'result store (putResult)' },
    { key: 'subagent.other', label: 'runSubagent, other' },
    { key: 'batch', label: 'batch item try: its lease (take, renew, give back) and its end (runBatchItem)' },
    { key: 'lead', label: 'lead-side and batch bookkeeping activities (leadModelStep, recordToolOutcome, batch store reads and writes, ...)' },
    { key: 'temporal', label: 'Temporal SDK, JavaScript side (worker, activity plumbing, payloads, core bridge)' },
    { key: 'client', label: 'client (start runs, await results)' },
    { key: 'store.commit', label: 'store: BEGIN/COMMIT of a SQLite transaction (mostly the wait for the WAL sync, so overstated as CPU)' },
    { key: 'store.other', label: 'store, other' },
    { key: 'async', label: 'async_hooks promise tracking (AsyncLocalStorage), no caller on the stack' },
    GC,
    NATIVE,
    { key: 'other', label: 'other' },
  ],
  leafCallers: [{ phase: 'store.commit', names: ['sqliteTransaction'], url: pkg('better-sqlite3') }],
  claims: [
    { phase: 'build.input', names: ['resolveSubagent', 'listSubagents', 'loadTaskPrompt', 'resolveSubagentModelName'] },
    { phase: 'build.model', names: ['createModel', 'createChatModel', 'loadScenarioCached'] },
    { phase: 'build.prompt', names: ['renderSubagentSystemPrompt', 'buildSkillsSection', 'buildDeferredToolsSection', 'withAcceptanceCriteria'] },
    { phase: 'build.skills', names: ['loadSubagentSkills', 'getOrNewUserSkillStorage', 'intersectSkillAllowlists'] },
    { phase: 'build.tools', names: ['subagentTools', 'executionTools', 'createAgentTools', 'ThreadWorkspace', 'subagentHasTool', 'subagentDeferredTools'] },
    { phase: 'build.middleware', names: ['buildSubagentMiddleware', 'agentSpansMiddleware', 'withToolReceipts', 'stopReasonGuards', 'recursionLimitForTurns'] },
    { phase: 'build.agent', names: ['createAgent'], url: pkg('langchain') },
    { phase: 'build.agent', names: ['shapeKey'], url: src(`${ACTIVITIES}run-subagent`) },
    { phase: 'build.agent', url: src(`${ACTIVITIES}agent-pool`) },
    { phase: 'client', url: src('client/') },
    { phase: 'checkpoints', names: ['takeOverCheckpoint', 'dropCheckpoints'] },
    { phase: 'checkpoints', url: src(`${ACTIVITIES}(store-retrying-checkpoints|subagent-checkpoint|bound-checkpoints)`) },
    { phase: 'steps', url: src(`${ACTIVITIES}(step-event-buffer|step-capture)`) },
    { phase: 'progress', url: src(`${ACTIVITIES}(task-progress-reporter|usage-collector)`) },
    { phase: 'progress', names: ['heartbeat'], url: /@temporalio\/activity\// },
    { phase: 'result', names: ['finish'], url: src(`${ACTIVITIES}run-subagent`) },
    { phase: 'batch', names: ['waitForLease', 'renew', 'writeCompleted'], url: src(`${ACTIVITIES}run-batch-item`) },
    {
      phase: 'lead',
      url: src(
        `${ACTIVITIES}(lead-|record-|thread-|tool-outcome|close-tool|admi|rewrite-lead|prepare-lead|final-result|frame-user|trim-lead|unique-tool|batch-|run-lead-tool)`,
      ),
    },
  ],
  nearest: [
    { phase: 'run.middleware', url: src('(middleware|receipts|telemetry)/') },
    { phase: 'run.middleware', url: src(`${ACTIVITIES}execution-slot`) },
    { phase: 'run.model', url: src('models/') },
    { phase: 'build.skills', url: src('skills/') },
    { phase: 'checkpoints', url: /@langchain\/langgraph-checkpoint(-sqlite)?\/dist\/(index|serde)/ },
    { phase: 'result', url: src('store/.*task-result-store') },
    { phase: 'batch', url: src(`${ACTIVITIES}(run-batch-item|batch-item-end|batch-lease-waiters)`) },
  ],
  packages: [
    { phase: 'run.graph', url: /\/node_modules\/(@langchain\/|langchain\/|langsmith\/|zod\/|uuid\/)/ },
    { phase: 'subagent.other', url: src(`${ACTIVITIES}run-subagent`) },
    { phase: 'client', url: /\/(node_modules\/@temporalio\/client|src\/client)\// },
    { phase: 'temporal', url: /\/node_modules\/(@temporalio\/|protobufjs\/|rxjs\/|long\/|@grpc\/)/ },
    { phase: 'store.other', url: /\/(node_modules\/better-sqlite3|src\/store)\// },
    { phase: 'async', url: /^node:(internal\/)?async_hooks$/ },
  ],
  fallback: 'other',
};

/** Phases of the SDK's workflow worker threads (workflow code runs in a bundle, one VM context per thread). */
export const WORKFLOW_THREAD_RULES: PhaseRules = {
  phases: [
    { key: 'wf.stacks', label: "SDK promise hook: a stack trace (source-mapped) per promise workflow code creates" },
    { key: 'wf.code', label: 'workflow bundle: deerflow workflows, @temporalio/workflow, zod' },
    { key: 'wf.sdk', label: 'SDK worker thread: activations in and out, VM context' },
    GC,
    NATIVE,
    { key: 'wf.other', label: 'other' },
  ],
  leafCallers: [],
  claims: [{ phase: 'wf.stacks', names: ['init', 'settled'], url: /@temporalio\/worker\/lib\/workflow\/vm-shared/ }],
  nearest: [],
  packages: [
    { phase: 'wf.code', url: /workflow-bundle-|evalmachine/ },
    { phase: 'wf.sdk', url: /\/node_modules\/(@temporalio\/|source-map\/)/ },
  ],
  fallback: 'wf.other',
};

/** Samples per phase key of one profile, and the samples no rule matched, by frame. */
export interface PhaseSamples {
  /** Busy samples (everything but idle) per phase key. */
  readonly byPhase: Map<string, number>;
  readonly busy: number;
  /** Busy time from the profile's own clock (wall time between samples), ms. */
  readonly busyMs: number;
  /** Frames (`function url`) of the samples that fell to the fallback, by count. */
  readonly unmatched: Map<string, number>;
}

type ProfileNode = Profiler.ProfileNode;

function matches(rule: FrameRule, node: ProfileNode): boolean {
  const { functionName, url } = node.callFrame;
  return (rule.names === undefined || rule.names.includes(functionName)) && (rule.url === undefined || rule.url.test(url));
}

function isNodeInternal(node: ProfileNode): boolean {
  return node.callFrame.url.startsWith('node:') || node.callFrame.url === '';
}

/** Assigns every busy sample of `profile` to a phase of `rules`. */
export function attributeSamples(profile: Profiler.Profile, rules: PhaseRules): PhaseSamples {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  // Leaf first, root last.
  const stackOf = (leaf: ProfileNode): ProfileNode[] => {
    const stack: ProfileNode[] = [];
    for (let node: ProfileNode | undefined = leaf; node !== undefined; node = parent.get(node.id)) stack.push(node);
    return stack;
  };
  const phaseOf = new Map<number, string | null>();
  const classify = (leaf: ProfileNode): string | null => {
    const special = leaf.callFrame.functionName;
    if (special === '(idle)') return null;
    if (special === '(garbage collector)') return GC.key;
    if (special === '(program)') return NATIVE.key;
    const stack = stackOf(leaf);
    const caller = leaf.callFrame.url === '' ? stack[1] : undefined;
    const byCaller = caller === undefined ? undefined : rules.leafCallers.find((rule) => matches(rule, caller));
    if (byCaller) return byCaller.phase;
    for (let i = stack.length - 1; i >= 0; i--) {
      const node = stack[i] as ProfileNode;
      const claim = rules.claims.find((rule) => matches(rule, node));
      if (claim) return claim.phase;
    }
    for (const node of stack) {
      const near = rules.nearest.find((rule) => matches(rule, node));
      if (near) return near.phase;
    }
    for (const internal of [false, true]) {
      for (const node of stack) {
        if (isNodeInternal(node) !== internal) continue;
        const owner = rules.packages.find((rule) => matches(rule, node));
        if (owner) return owner.phase;
      }
    }
    return rules.fallback;
  };

  const byPhase = new Map<string, number>();
  const unmatched = new Map<string, number>();
  let busy = 0;
  let busyMs = 0;
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, index) => {
    const leaf = nodes.get(id);
    if (leaf === undefined) return;
    if (!phaseOf.has(id)) phaseOf.set(id, classify(leaf));
    const phase = phaseOf.get(id) ?? null;
    if (phase === null) return;
    busy += 1;
    // A sample's delta is the time since the previous one: the time the thread spent getting here.
    busyMs += (deltas[index] ?? 0) / 1000;
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);
    if (phase === rules.fallback) {
      const frame = `${leaf.callFrame.functionName || '(anonymous)'} ${shortUrl(leaf.callFrame.url)}`;
      unmatched.set(frame, (unmatched.get(frame) ?? 0) + 1);
    }
  });
  return { byPhase, busy, busyMs, unmatched };
}

/** The url from the package or the repository folder on: `@langchain/core/dist/...`, `src/activities/...`. */
export function shortUrl(url: string): string {
  const inPackage = url.lastIndexOf('/node_modules/');
  if (inPackage >= 0) return url.slice(inPackage + '/node_modules/'.length);
  const inRepo = url.search(/\/(src|bench)\//);
  return inRepo >= 0 ? url.slice(inRepo + 1) : url;
}
