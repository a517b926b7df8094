/** Locating and starting the embedded Temporal dev server. */
export { startDevServer } from './dev-server';
export type { DevServer, DevServerOptions } from './dev-server';
export {
  resolveTemporalCli,
  TEMPORAL_CLI_PATH_ENV,
  PROJECT_TEMPORAL_CLI_RELATIVE_PATH,
} from './resolve-temporal-cli';
export type { ResolvedCli, ResolveTemporalCliOptions, TemporalCliSource } from './resolve-temporal-cli';
export { findProjectRoot } from './project-root';
export { dynamicConfigFlags } from './dynamic-config-flags';
export type { SearchAttributeDefinition } from './search-attribute-flags';
