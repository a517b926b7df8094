import type { GatewayConfig, SandboxConfig } from '../config';

/**
 * What `deerflow serve` does about host bash: start silently, start with a warning (to print on
 * stderr), or refuse to start (a usage error whose message names the settings).
 */
export type HostBashServeDecision =
  | { readonly kind: 'ok' }
  | { readonly kind: 'warn'; readonly message: string }
  | { readonly kind: 'refuse'; readonly message: string };

/**
 * Decides whether `deerflow serve` may start with the configured host bash. Host bash runs commands
 * as the worker's OS user with no isolation, so with `gateway.tokens` (several users) any user's
 * agent could read other users' workspaces and the store: refused unless
 * `sandbox.host_bash_multi_user` says that is accepted. Whenever host bash is on, serve warns.
 * Pure: no I/O, so the policy is unit-tested apart from the server.
 */
export function decideHostBashForServe(config: {
  readonly sandbox: Pick<SandboxConfig, 'allow_host_bash' | 'host_bash_multi_user'>;
  readonly gateway: Pick<GatewayConfig, 'tokens'>;
}): HostBashServeDecision {
  if (!config.sandbox.allow_host_bash) return { kind: 'ok' };
  const multiUser = config.gateway.tokens.length > 0;
  if (multiUser && !config.sandbox.host_bash_multi_user) {
    return {
      kind: 'refuse',
      message:
        'sandbox.allow_host_bash is on while gateway.tokens makes this gateway multi-user: bash runs as ' +
        "the worker's OS user without isolation, so one user's agent can read other users' workspaces " +
        'and the store. Turn sandbox.allow_host_bash off, or set sandbox.host_bash_multi_user: true to ' +
        'accept that risk.',
    };
  }
  return {
    kind: 'warn',
    message: multiUser
      ? "warning: host bash is on for a multi-user gateway (sandbox.host_bash_multi_user: true): commands run as the worker's OS user and can read every user's workspace and the store"
      : "warning: host bash is on (sandbox.allow_host_bash): agents run commands on this machine as the worker's OS user, without isolation",
  };
}
