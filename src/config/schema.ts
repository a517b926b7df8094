import { z } from 'zod';
import { mcpServerOf } from '../contracts/mcp-tool-names';
import { ModelStepsSchema } from '../contracts/workflow-io';
import { LeadToolEntrySchema, McpServersSchema } from './mcp-servers-schema';
import { ToolSearchConfigSchema } from './tool-search-schema';

/**
 * The config.yaml schema. Every object is strict (unknown keys are errors) and every default and
 * range comes from SPEC.md; `AppConfig` is the parsed, defaulted, frozen result.
 */

const posInt = z.number().int().min(1);
const name = z.string().trim().min(1);

/**
 * `when` option for a cross-field check: run it whenever the fields it reads parsed cleanly. By default
 * zod skips object-level checks as soon as any field of the object has a problem, so a config with a
 * typo elsewhere would hide e.g. a duplicate model name until the typo is fixed.
 */
function whenFieldsValid(...fields: string[]): (payload: z.core.ParsePayload) => boolean {
  return (payload) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    payload.issues.every((issue) => {
      const first = issue.path?.[0];
      // Unknown keys leave every known field intact; any other root-level issue means "not an object".
      if (first === undefined) return issue.code === 'unrecognized_keys';
      return typeof first !== 'string' || !fields.includes(first);
    });
}

/** Chat-model providers a `models[]` entry may use. */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'ollama', 'scripted'] as const;

/** One `models[]` entry: a named chat model. */
export const ModelConfigSchema = z
  .strictObject({
    /** Name agents and runs refer to. */
    name,
    provider: z.enum(MODEL_PROVIDERS),
    /** Provider model id (e.g. `gpt-4o-mini`); not used by `scripted`. */
    model: name.optional(),
    /** Endpoint for OpenAI-compatible servers and Ollama. */
    base_url: z.url().optional(),
    /** Name of the environment variable holding the API key (never the key itself). */
    api_key_env: name.optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: posInt.optional(),
    timeout_seconds: posInt.optional(),
    /** Scenario file of a `scripted` model, relative to the config file. */
    script: name.optional(),
    /** `scripted` only: reject requests strict providers reject (default when absent: true). */
    strict: z.boolean().optional(),
    /** Provider retries of the client library itself (0 leaves retrying to the agent middleware). */
    max_retries: z.number().int().min(0).max(10).default(0),
  })
  .superRefine((m, ctx) => {
    if (m.provider === 'scripted' && !m.script) {
      ctx.addIssue({ code: 'custom', path: ['script'], message: 'is required for provider "scripted"' });
    }
    if (m.provider !== 'scripted' && !m.model) {
      ctx.addIssue({ code: 'custom', path: ['model'], message: `is required for provider "${m.provider}"` });
    }
    if (m.provider === 'scripted' && m.model) {
      ctx.addIssue({ code: 'custom', path: ['model'], message: 'is not used by provider "scripted"' });
    }
    if (m.provider !== 'scripted' && m.strict !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['strict'], message: `is not used by provider "${m.provider}" (scripted only)` });
    }
  }, { when: whenFieldsValid('provider', 'model', 'script', 'strict') });
export type ModelConfig = z.infer<typeof ModelConfigSchema>;

/** Generic token budget (SPEC §6.2). */
export const TokenBudgetConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    max_tokens: z.number().int().min(1000).default(200_000),
    max_input_tokens: posInt.nullable().default(null),
    max_output_tokens: posInt.nullable().default(null),
    warn_threshold: z.number().min(0).max(1).default(0.8),
    hard_stop_threshold: z.number().min(0).max(1).default(1.0),
  })
  .refine((b) => b.hard_stop_threshold >= b.warn_threshold, {
    path: ['hard_stop_threshold'],
    message: 'must be >= warn_threshold',
    when: whenFieldsValid('warn_threshold', 'hard_stop_threshold'),
  });
export type TokenBudgetConfig = z.infer<typeof TokenBudgetConfigSchema>;

/** Per-subagent overrides (`subagents.agents.<name>`, SPEC §1.3); null = not overridden. */
export const SubagentOverrideSchema = z.strictObject({
  timeout_seconds: posInt.nullable().default(null),
  max_turns: posInt.nullable().default(null),
  model: name.nullable().default(null),
  skills: z.array(name).nullable().default(null),
  token_budget: TokenBudgetConfigSchema.nullable().default(null),
});
export type SubagentOverride = z.infer<typeof SubagentOverrideSchema>;

/** Tools a custom subagent may never use unless its `disallowed_tools` says otherwise. */
export const DEFAULT_DISALLOWED_TOOLS = ['task', 'ask_clarification', 'present_files'] as const;

/** A subagent defined in config (`subagents.custom_agents.<name>`, SPEC §1.3). */
export const CustomSubagentSchema = z.strictObject({
  description: name,
  system_prompt: name,
  tools: z.array(name).nullable().default(null),
  disallowed_tools: z.array(name).default([...DEFAULT_DISALLOWED_TOOLS]),
  skills: z.array(name).nullable().default(null),
  model: name.default('inherit'),
  max_turns: posInt.default(50),
  timeout_seconds: posInt.default(900),
});
export type CustomSubagent = z.infer<typeof CustomSubagentSchema>;

/** The `subagents` section (SPEC §1.3). */
export const SubagentsConfigSchema = z.strictObject({
  timeout_seconds: posInt.default(1800),
  max_turns: posInt.nullable().default(null),
  max_total_per_run: z.number().int().min(1).max(50).default(6),
  /** Absent = the subagent default budget (SPEC §6.2), which depends on `summarization.enabled`. */
  token_budget: TokenBudgetConfigSchema.nullable().default(null),
  agents: z.record(name, SubagentOverrideSchema).default({}),
  custom_agents: z.record(name, CustomSubagentSchema).default({}),
  /**
   * An attempt after a lost or stopped worker continues from the previous attempt's last completed
   * step (LangGraph checkpoints in the store) instead of starting over; false starts over.
   */
  resume: z.boolean().default(true),
});
export type SubagentsConfig = z.infer<typeof SubagentsConfigSchema>;

/** Startup-only admission settings (SPEC Appendix C.1). */
export const SubagentRuntimeConfigSchema = z.strictObject({
  max_running: z.number().int().min(1).max(64).default(3),
  max_queued: z.number().int().min(0).max(10_000).default(64),
  admission_policy: z.enum(['queue', 'reject']).default('queue'),
  queue_timeout_seconds: z.number().int().min(1).max(86_400).default(300),
  /** Safety net beyond a task's timeout, counted from dispatch (queue wait included): then `polling_timed_out`. */
  polling_grace_seconds: z.number().int().min(1).max(3600).default(60),
  /** Without a heartbeat for this long a subagent's worker is considered lost and the task runs again. */
  heartbeat_timeout_seconds: z.number().int().min(5).max(600).default(30),
  /** How far `extendTask` may move one task's deadline past its timeout, in total. 0 = never. */
  max_task_extension_seconds: z.number().int().min(0).max(86_400).default(3600),
  /**
   * At most one `taskProgress` signal per running task this often: the run's live view of what its
   * tasks spent (query `state`, Temporal Web's current details). Each signal is a history event and
   * a workflow task of the run. What a cancelled task keeps comes from the store either way. 0 = none.
   */
  progress_signal_seconds: z.number().int().min(0).max(3600).default(5),
});
export type SubagentRuntimeConfig = z.infer<typeof SubagentRuntimeConfigSchema>;

/** Durable batches (SPEC Appendix C.3), startup-only: defaults and ceilings for every batch. */
export const SubagentBatchesConfigSchema = z
  .strictObject({
    /** Batches exist at all: the lead's `batch_task` tool, `deerflow batch`, the client and the gateway routes. */
    enabled: z.boolean().default(false),
    /** Shortest wait before an item asks for a slot again after a capacity rejection (doubles up to 30x). */
    poll_interval_seconds: z.number().min(0.1).max(60).default(1),
    /** An item's lease: a subagent worker silent for this long is lost and the attempt counts as used. */
    lease_seconds: z.number().int().min(10).max(3600).default(120),
    max_items_per_batch: z.number().int().min(1).max(100_000).default(5000),
    default_max_live_items: z.number().int().min(1).max(100_000).default(100),
    max_live_items_per_batch: z.number().int().min(1).max(100_000).default(1000),
    default_max_running_items: z.number().int().min(1).max(64).default(3),
    max_running_items_per_batch: z.number().int().min(1).max(64).default(64),
    max_attempts: z.number().int().min(1).max(10).default(3),
    max_result_chars: z.number().int().min(1).max(10_000_000).default(100_000),
    result_preview_max_chars: z.number().int().min(0).max(100_000).default(2000),
  })
  .refine((c) => c.default_max_live_items <= c.max_live_items_per_batch, {
    path: ['default_max_live_items'],
    message: 'must be <= max_live_items_per_batch',
    when: whenFieldsValid('default_max_live_items', 'max_live_items_per_batch'),
  })
  .refine((c) => c.default_max_running_items <= c.max_running_items_per_batch, {
    path: ['default_max_running_items'],
    message: 'must be <= max_running_items_per_batch',
    when: whenFieldsValid('default_max_running_items', 'max_running_items_per_batch'),
  })
  .refine((c) => c.default_max_running_items <= c.default_max_live_items, {
    path: ['default_max_running_items'],
    message: 'must be <= default_max_live_items',
    when: whenFieldsValid('default_max_running_items', 'default_max_live_items'),
  })
  .refine((c) => c.result_preview_max_chars <= c.max_result_chars, {
    path: ['result_preview_max_chars'],
    message: 'must be <= max_result_chars',
    when: whenFieldsValid('result_preview_max_chars', 'max_result_chars'),
  });
export type SubagentBatchesConfig = z.infer<typeof SubagentBatchesConfigSchema>;

const ToolFreqOverrideSchema = z
  .strictObject({ warn: posInt, hard_limit: posInt })
  .refine((o) => o.hard_limit >= o.warn, {
    path: ['hard_limit'],
    message: 'must be >= warn',
    when: whenFieldsValid('warn', 'hard_limit'),
  });

/** Loop detection (SPEC §6.3). */
export const LoopDetectionConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    warn_threshold: posInt.default(3),
    hard_limit: posInt.default(5),
    window_size: posInt.default(20),
    max_tracked_threads: posInt.default(100),
    tool_freq_warn: posInt.default(30),
    tool_freq_hard_limit: posInt.default(50),
    tool_freq_overrides: z.record(name, ToolFreqOverrideSchema).default({}),
  })
  .refine((c) => c.hard_limit >= c.warn_threshold, {
    path: ['hard_limit'],
    message: 'must be >= warn_threshold',
    when: whenFieldsValid('warn_threshold', 'hard_limit'),
  })
  .refine((c) => c.tool_freq_hard_limit >= c.tool_freq_warn, {
    path: ['tool_freq_hard_limit'],
    message: 'must be >= tool_freq_warn',
    when: whenFieldsValid('tool_freq_warn', 'tool_freq_hard_limit'),
  });
export type LoopDetectionConfig = z.infer<typeof LoopDetectionConfigSchema>;

/** Context compaction shared by the lead and subagents (SPEC §6.5, FACTS §5). */
export const SummarizationConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Model that writes summaries; null = the agent's own model. */
  model: name.nullable().default(null),
  trigger: z
    .strictObject({ tokens: posInt.optional(), messages: posInt.optional() })
    .default(() => ({ tokens: 100_000 })),
  keep: z.strictObject({ messages: posInt }).default(() => ({ messages: 20 })),
});
export type SummarizationConfig = z.infer<typeof SummarizationConfigSchema>;

/** Tool-receipt verification of subagent reports (SPEC Appendix C.4). */
export const VerificationConfigSchema = z.strictObject({
  receipts_enabled: z.boolean().default(true),
});
export type VerificationConfig = z.infer<typeof VerificationConfigSchema>;

/** A lead agent definition (`agents.<name>`). */
export const LeadAgentSchema = z.strictObject({
  description: z.string().default(''),
  system_prompt: z.string().nullable().default(null),
  model: name.nullable().default(null),
  /** null/absent = every subagent, [] = delegation off, list = allowlist. */
  allowed_subagents: z.array(name).nullable().default(null),
  /** Skills this lead's subagents may use (intersected with each subagent's own list): null = all, [] = none. */
  skills: z.array(name).nullable().default(null),
  max_turns: posInt.default(50),
  /**
   * The lead's own tools (besides `task`/`batch_task`): null/absent = all it may have (every enabled
   * MCP server's too), list = only these (built-in names, `<server>__<tool>`, `<server>__*`).
   */
  tools: z.array(LeadToolEntrySchema).nullable().default(null),
  /** The lead's own token budget over one run; null = `subagents.token_budget`, else the subagent default. */
  token_budget: TokenBudgetConfigSchema.nullable().default(null),
  /** How long a run waits for the answer to its `ask_clarification` question, then ends `needs_input`. */
  clarification_timeout_seconds: z.number().int().min(1).max(30 * 86_400).default(86_400),
});
export type LeadAgent = z.infer<typeof LeadAgentSchema>;

/** Where runs, events and workspaces are stored. */
export const StoreConfigSchema = z.strictObject({
  /** Folder for the SQLite database and per-thread workspaces. */
  data_dir: name.default('.deerflow'),
  /** `postgres://...`; when set (or DATABASE_URL is), PostgreSQL replaces SQLite. */
  postgres_url: name.nullable().default(null),
  /**
   * SQLite `synchronous`: FULL (default) syncs every commit, so an OS crash never rolls back what an
   * activity reported done; NORMAL is faster and may lose the last commits on power loss.
   */
  sqlite_synchronous: z.enum(['FULL', 'NORMAL']).default('FULL'),
});
export type StoreConfig = z.infer<typeof StoreConfigSchema>;

/** TLS to the Temporal frontend (Temporal Cloud mTLS, a self-hosted cluster behind TLS). Paths are relative to the config file. */
export const TemporalTlsConfigSchema = z
  .strictObject({
    /** PEM client certificate for mTLS; goes with `client_key_path`. */
    client_cert_path: name.nullable().default(null),
    /** PEM private key of the client certificate. */
    client_key_path: name.nullable().default(null),
    /** PEM CA certificate that signed the server's; null = the system's trusted roots (Temporal Cloud). */
    server_ca_cert_path: name.nullable().default(null),
    /** Server name checked against the certificate (SNI), when it differs from the address host. */
    server_name: name.nullable().default(null),
  })
  .superRefine((tls, ctx) => {
    if ((tls.client_cert_path === null) !== (tls.client_key_path === null)) {
      const missing = tls.client_cert_path === null ? 'client_cert_path' : 'client_key_path';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required when the other half of the client certificate pair is set' });
    }
  }, { when: whenFieldsValid('client_cert_path', 'client_key_path') });
export type TemporalTlsConfig = z.infer<typeof TemporalTlsConfigSchema>;

/** Which Temporal cluster to use. */
export const TemporalConfigSchema = z.strictObject({
  /** `host:port` of a Temporal frontend; null = start the embedded dev server. */
  address: name.nullable().default(null),
  namespace: name.default('default'),
  /** Base URL of the cluster's Temporal Web UI, used for run links; the embedded server's is known. */
  ui_url: z.url().nullable().default(null),
  /** TLS settings; null = plaintext, unless an API key is set (API keys always go over TLS). */
  tls: TemporalTlsConfigSchema.nullable().default(null),
  /** Name of the environment variable holding a Temporal Cloud API key (never the key itself). */
  api_key_env: name.nullable().default(null),
});
export type TemporalConfig = z.infer<typeof TemporalConfigSchema>;

/** `IPv4:port` or `[IPv6]:port`: the Temporal runtime binds a socket address, not a host name. */
const socketAddress = z
  .string()
  .regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/, 'must be IP:port, e.g. 0.0.0.0:9464 or [::]:9464');

/** Log line formats of worker processes. */
export const LOG_FORMATS = ['text', 'json'] as const;

/** Traces, metrics and log format (all off or plain by default). */
export const TelemetryConfigSchema = z.strictObject({
  /**
   * OTLP/HTTP collector base URL (e.g. `http://localhost:4318`); spans go to `<url>/v1/traces`.
   * null = no tracing: no spans are made and workflows run without the tracing interceptors.
   */
  otlp_endpoint: z.url().nullable().default(null),
  /** `service.name` of the spans. */
  service_name: name.default('deerflow'),
  /** Where worker processes serve the Temporal SDK's Prometheus metrics (`/metrics`); null = not served. */
  prometheus_bind: socketAddress.nullable().default(null),
  /** Worker log lines: `text`, or `json` lines (pino) whose fields include thread, run and task ids. */
  log_format: z.enum(LOG_FORMATS).default('text'),
});
export type TelemetryConfig = z.infer<typeof TelemetryConfigSchema>;

/** Host tool execution (the local "sandbox" is the per-thread workspace folder). */
export const SandboxConfigSchema = z.strictObject({
  /** Run `bash` on this host. Off by default: commands are not isolated from the host. */
  allow_host_bash: z.boolean().default(false),
  bash_timeout_seconds: z.number().int().min(1).max(3600).default(120),
  max_output_chars: z.number().int().min(1000).max(1_000_000).default(20_000),
  /** Largest file `read_file` and `str_replace` open; larger files are refused with a clear error. */
  max_file_bytes: z.number().int().min(1024).max(1_000_000_000).default(10_000_000),
  /**
   * Allow host bash in a multi-user gateway (`gateway.tokens`). Off: `deerflow serve` with tokens
   * refuses to start while `allow_host_bash` is on, since bash runs as the worker's user.
   */
  host_bash_multi_user: z.boolean().default(false),
});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

/** The lead's own tool calls: each runs as one `runLeadTool` activity on the `deerflow` queue. */
export const LeadToolsConfigSchema = z.strictObject({
  /** Start-to-close timeout of one lead tool call; past it the call ends failed (the run goes on). */
  timeout_seconds: z.number().int().min(1).max(86_400).default(300),
  /** A lead tool's worker is lost after this long without a heartbeat. */
  heartbeat_timeout_seconds: z.number().int().min(5).max(600).default(30),
});
export type LeadToolsConfig = z.infer<typeof LeadToolsConfigSchema>;

/** Lead runs as workflows. */
export const LeadRunsConfigSchema = z.strictObject({
  /** A lead run continues as new once its history reaches this many events (or Temporal suggests it). */
  history_event_limit: z.number().int().min(100).max(50_000).default(10_000),
  /**
   * How the lead's model steps run: `activity` (a regular activity: heartbeats, its own retries,
   * listed as an activity in Temporal Web) or `local` (a local activity inside the workflow task:
   * two server round trips fewer per lead turn, for fast models; no heartbeat, a lost worker is
   * noticed by the workflow task timeout, and a cancel or update sent during a step is seen at the
   * workflow task's heartbeat, within ~8 s). Fixed for a run when it starts.
   */
  model_steps: ModelStepsSchema.default('activity'),
});
export type LeadRunsConfig = z.infer<typeof LeadRunsConfigSchema>;

/** The `web_fetch` tool (lead and subagents): one HTTP(S) GET, main content as Markdown. */
export const WebFetchConfigSchema = z.strictObject({
  /** Fetch loopback, private and link-local addresses too. Off by default: agents stay out of the operator's network. */
  allow_private_networks: z.boolean().default(false),
  /** Whole request (redirects included). */
  timeout_seconds: z.number().int().min(1).max(300).default(20),
  /** Largest response body read; a larger page is refused. */
  max_response_bytes: z.number().int().min(1024).max(50_000_000).default(5_000_000),
  /** Redirects followed before giving up. */
  max_redirects: z.number().int().min(0).max(20).default(5),
  /** Markdown returned to the model (the rest is cut). */
  max_output_chars: z.number().int().min(1000).max(1_000_000).default(40_000),
});
export type WebFetchConfig = z.infer<typeof WebFetchConfigSchema>;

/** One API token of the HTTP gateway: the bearer token of `user` is read from the variable `token_env`. */
export const GatewayTokenSchema = z.strictObject({
  /** A user id: it names folders (`users/<user>/skills`) and appears in Temporal visibility queries. */
  user: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$/, 'must be 1-128 characters: letters, digits, _ . @ - (starting with a letter or digit)'),
  /** Name of the environment variable holding the token (never the token itself). */
  token_env: name,
});
export type GatewayToken = z.infer<typeof GatewayTokenSchema>;

/** The HTTP API + SSE server (`deerflow serve`). */
export const GatewayConfigSchema = z.strictObject({
  /** Without `tokens` only a loopback address is accepted. */
  host: name.default('127.0.0.1'),
  /** 0 = any free port. */
  port: z.number().int().min(0).max(65_535).default(8787),
  /** Empty = no authentication: every caller is user `default` (loopback only). */
  tokens: z.array(GatewayTokenSchema).default([]),
  /**
   * Browser origins allowed to call the gateway (`Origin` header), e.g. `https://app.example.com`.
   * Without tokens only loopback origins are ever accepted, whatever this says.
   */
  allowed_origins: z.array(z.url()).default([]),
  /**
   * Longest pause between store reads of an idle SSE stream: pauses double from 500 ms while nothing
   * arrives and drop back as soon as rows do, so a new row goes out within this long.
   */
  stream_poll_max_ms: z.number().int().min(500).max(60_000).default(5_000),
  /** SSE streams one caller (user; the unscoped operator is one) may hold open; one more is a 429. */
  max_streams_per_caller: z.number().int().min(1).max(1_000).default(8),
});
export type GatewayConfig = z.infer<typeof GatewayConfigSchema>;

/**
 * The default `worker.workflow_stack_trace_limit`. The SDK's hook takes two of a promise's frames,
 * which leaves two: where the promise was made and its caller. The Stack Trace tab joins the stacks
 * of a waiting chain, so it still names the line of our code a waiting run waits on (a task, an
 * answer, a model step); the worker spends 6-9% less CPU per subagent task (bench/FINDINGS.md).
 */
export const DEFAULT_WORKFLOW_STACK_TRACE_LIMIT = 4;

/** How a worker process stops. */
export const WorkerConfigSchema = z.strictObject({
  /**
   * On SIGTERM/SIGINT the worker stops polling and lets running subagents and tools finish for this
   * long; what is still running then is cancelled and retried on another worker at once (instead of
   * after a heartbeat timeout). Keep it below the orchestrator's kill deadline (Kubernetes: 30 s).
   */
  shutdown_grace_seconds: z.number().int().min(0).max(3600).default(20),
  /**
   * `Error.stackTraceLimit` inside the workflow sandbox: the frames V8 records per stack there. The
   * SDK records the stack of every promise workflow code creates, for the stack trace query (Temporal
   * Web's Stack Trace tab); fewer frames cost less CPU per workflow task. null = V8's default (10).
   */
  workflow_stack_trace_limit: z.number().int().min(0).max(100).nullable().default(DEFAULT_WORKFLOW_STACK_TRACE_LIMIT),
});
export type WorkerConfig = z.infer<typeof WorkerConfigSchema>;

/** The whole config.yaml. */
export const AppConfigSchema = z
  .strictObject({
    models: z.array(ModelConfigSchema).default([]),
    default_model: name.nullable().default(null),
    token_budget: TokenBudgetConfigSchema.default(() => TokenBudgetConfigSchema.parse({})),
    subagents: SubagentsConfigSchema.default(() => SubagentsConfigSchema.parse({})),
    subagent_runtime: SubagentRuntimeConfigSchema.default(() => SubagentRuntimeConfigSchema.parse({})),
    subagent_batches: SubagentBatchesConfigSchema.default(() => SubagentBatchesConfigSchema.parse({})),
    loop_detection: LoopDetectionConfigSchema.default(() => LoopDetectionConfigSchema.parse({})),
    summarization: SummarizationConfigSchema.default(() => SummarizationConfigSchema.parse({})),
    verification: VerificationConfigSchema.default(() => VerificationConfigSchema.parse({})),
    agents: z.record(name, LeadAgentSchema).default({}),
    store: StoreConfigSchema.default(() => StoreConfigSchema.parse({})),
    temporal: TemporalConfigSchema.default(() => TemporalConfigSchema.parse({})),
    sandbox: SandboxConfigSchema.default(() => SandboxConfigSchema.parse({})),
    lead_tools: LeadToolsConfigSchema.default(() => LeadToolsConfigSchema.parse({})),
    lead_runs: LeadRunsConfigSchema.default(() => LeadRunsConfigSchema.parse({})),
    web_fetch: WebFetchConfigSchema.default(() => WebFetchConfigSchema.parse({})),
    gateway: GatewayConfigSchema.default(() => GatewayConfigSchema.parse({})),
    worker: WorkerConfigSchema.default(() => WorkerConfigSchema.parse({})),
    telemetry: TelemetryConfigSchema.default(() => TelemetryConfigSchema.parse({})),
    mcp_servers: McpServersSchema,
    tool_search: ToolSearchConfigSchema.default(() => ToolSearchConfigSchema.parse({})),
  })
  .superRefine(
    (c, ctx) => {
      const names = new Set<string>();
      c.models.forEach((m, i) => {
        if (names.has(m.name)) ctx.addIssue({ code: 'custom', path: ['models', i, 'name'], message: `duplicate model name "${m.name}"` });
        names.add(m.name);
      });
      if (c.default_model !== null && !names.has(c.default_model)) {
        const known = names.size === 0 ? 'no models are configured' : `configured: ${[...names].join(', ')}`;
        ctx.addIssue({ code: 'custom', path: ['default_model'], message: `"${c.default_model}" is not a configured model (${known})` });
      }
    },
    { when: whenFieldsValid('models', 'default_model') },
  )
  .superRefine(
    (c, ctx) => {
      for (const [agent, def] of Object.entries(c.agents)) {
        def.tools?.forEach((entry, i) => {
          const server = mcpServerOf(entry);
          if (server !== null && c.mcp_servers[server] === undefined) {
            ctx.addIssue({ code: 'custom', path: ['agents', agent, 'tools', i], message: `names MCP server "${server}", which is not in mcp_servers` });
          }
        });
      }
    },
    { when: whenFieldsValid('agents', 'mcp_servers') },
  )
  .superRefine(
    (c, ctx) => {
      // A lead's MCP call runs in a `runLeadTool` activity: a server allowed longer than the
      // activity would be cut off by the activity's timeout first, with a misleading error.
      const leadLimit = c.lead_tools.timeout_seconds;
      for (const [server, def] of Object.entries(c.mcp_servers)) {
        if (!def.enabled || def.timeout_seconds <= leadLimit) continue;
        ctx.addIssue({
          code: 'custom',
          path: ['mcp_servers', server, 'timeout_seconds'],
          message: `${def.timeout_seconds} is longer than lead_tools.timeout_seconds (${leadLimit}), which bounds every lead tool call: lower it or raise lead_tools.timeout_seconds`,
        });
      }
    },
    { when: whenFieldsValid('mcp_servers', 'lead_tools') },
  );

/** Raw shape before parsing (what YAML may contain). */
export type AppConfigInput = z.input<typeof AppConfigSchema>;
/** Parsed, defaulted config. Loaded once and frozen: nothing mutates it at run time. */
export type AppConfig = Readonly<z.infer<typeof AppConfigSchema>>;
