import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { GatewayToken } from '../config';
import { GatewayError, GatewayErrorCode, GatewaySetupError, GatewaySetupErrorCode } from './errors';

/** The user every caller is when no tokens are configured. */
export const DEFAULT_GATEWAY_USER = 'default';

/** Who is calling. */
export interface Caller {
  readonly userId: string;
  /**
   * Whether runs are owner-scoped for this caller. False only without tokens: the server then
   * listens on loopback, the caller is the machine's operator (like the CLI) and sees every run.
   */
  readonly scoped: boolean;
}

/** Maps an `Authorization` header to a {@link Caller}. */
export interface GatewayAuth {
  /** True when tokens are configured (requests must carry one). */
  readonly required: boolean;
  /** @throws GatewayError `unauthorized` for a missing, malformed or unknown bearer token. */
  authenticate(authorization: string | undefined): Caller;
}

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * Resolves `gateway.tokens` against the environment. Tokens are compared as sha256 digests with
 * `timingSafeEqual`, so neither the comparison time nor a length check leaks a prefix.
 * @throws GatewaySetupError `missing_token` (variable unset/empty) or `duplicate_token`.
 */
export function resolveGatewayAuth(tokens: readonly GatewayToken[], env: NodeJS.ProcessEnv): GatewayAuth {
  if (tokens.length === 0) {
    const caller: Caller = { userId: DEFAULT_GATEWAY_USER, scoped: false };
    return { required: false, authenticate: () => caller };
  }
  const known: Array<{ readonly digest: Buffer; readonly caller: Caller }> = [];
  tokens.forEach((entry, i) => {
    const value = env[entry.token_env]?.trim() ?? '';
    const key = `gateway.tokens[${i}].token_env`;
    if (value === '') {
      throw new GatewaySetupError(GatewaySetupErrorCode.MissingToken, `${key}: environment variable ${entry.token_env} is not set`);
    }
    const d = digest(value);
    if (known.some((k) => timingSafeEqual(k.digest, d))) {
      throw new GatewaySetupError(GatewaySetupErrorCode.DuplicateToken, `${key}: ${entry.token_env} holds the same token as an earlier entry`);
    }
    known.push({ digest: d, caller: { userId: entry.user, scoped: true } });
  });
  return {
    required: true,
    authenticate(authorization) {
      const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(authorization ?? '');
      if (match === null) throw new GatewayError(GatewayErrorCode.Unauthorized, 'missing or malformed Authorization header (expected "Bearer <token>")');
      const d = digest(match[1] ?? '');
      // Compare against every entry (no early exit) so timing does not reveal which entry matched.
      let found: Caller | null = null;
      for (const k of known) if (timingSafeEqual(k.digest, d)) found = k.caller;
      if (found === null) throw new GatewayError(GatewayErrorCode.Unauthorized, 'unknown token');
      return found;
    },
  };
}

/** Whether `host` is a loopback address (127.0.0.0/8, ::1, IPv4-mapped loopback) or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

/**
 * Refuses to listen beyond this machine without authentication: without tokens every caller is
 * trusted as user `default` and sees every run, which is only acceptable on loopback.
 * @throws GatewaySetupError `unsafe_host`.
 */
export function assertBindable(host: string, auth: GatewayAuth): void {
  if (auth.required || isLoopbackHost(host)) return;
  throw new GatewaySetupError(
    GatewaySetupErrorCode.UnsafeHost,
    `gateway.host: refusing to listen on ${host} without authentication; configure gateway.tokens or use 127.0.0.1 / ::1`,
  );
}
