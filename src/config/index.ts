/**
 * config.yaml: lookup, parsing, validation and the frozen {@link AppConfig} snapshot everything else
 * receives.
 */
export {
  CONFIG_PATH_ENV,
  DEFAULT_CONFIG_FILE,
  ENV_OVERRIDES,
  loadConfig,
  parseConfigText,
  resolveConfigPath,
  resolveFromConfigDir,
} from './load-config';
export type { LoadConfigOptions, LoadedConfig, ResolveConfigPathOptions } from './load-config';

export { temporalConnectionOptions } from './temporal-connection-options';
export type { TemporalConnectionOptions } from './temporal-connection-options';

export { CONFIG_ERROR_CODES, ConfigError, formatConfigError, isConfigError } from './config-error';
export type { ConfigErrorCode, ConfigErrorOptions } from './config-error';

export { configErrorMap, formatKeyPath, issuesToProblems } from './issue-messages';

export { LeadToolEntrySchema, MCP_TRANSPORTS, McpServerSchema, McpServersSchema } from './mcp-servers-schema';
export type { McpServerConfig } from './mcp-servers-schema';
export { ToolSearchConfigSchema } from './tool-search-schema';
export type { ToolSearchConfig } from './tool-search-schema';

export {
  AppConfigSchema,
  CustomSubagentSchema,
  DEFAULT_DISALLOWED_TOOLS,
  DEFAULT_WORKFLOW_STACK_TRACE_LIMIT,
  GatewayConfigSchema,
  WorkerConfigSchema,
  GatewayTokenSchema,
  LeadAgentSchema,
  LoopDetectionConfigSchema,
  MODEL_PROVIDERS,
  ModelConfigSchema,
  SandboxConfigSchema,
  StoreConfigSchema,
  SubagentOverrideSchema,
  SubagentRuntimeConfigSchema,
  SubagentsConfigSchema,
  SummarizationConfigSchema,
  TemporalConfigSchema,
  TemporalTlsConfigSchema,
  TelemetryConfigSchema,
  LOG_FORMATS,
  TokenBudgetConfigSchema,
  VerificationConfigSchema,
} from './schema';
export type {
  AppConfig,
  AppConfigInput,
  CustomSubagent,
  GatewayConfig,
  WorkerConfig,
  GatewayToken,
  LeadAgent,
  LoopDetectionConfig,
  ModelConfig,
  SandboxConfig,
  StoreConfig,
  SubagentOverride,
  SubagentRuntimeConfig,
  SubagentsConfig,
  SummarizationConfig,
  TemporalConfig,
  TemporalTlsConfig,
  TelemetryConfig,
  TokenBudgetConfig,
  VerificationConfig,
} from './schema';
