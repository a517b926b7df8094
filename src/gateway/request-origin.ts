/**
 * DNS-rebinding and cross-site protection. Without `gateway.tokens` every caller is the trusted
 * operator, so a web page whose name resolves to 127.0.0.1 (DNS rebinding), or any page the
 * operator's browser has open (a cross-site `fetch`), must not reach the API: the browser sends
 * the page's own name as `Host` and its origin as `Origin`, which is what these checks refuse.
 * Clients that send no `Origin` (the CLI, curl, other servers) are not browsers and pass.
 */
import type { FastifyRequest } from 'fastify';
import { isLoopbackHost } from './auth';
import { GatewayError, GatewayErrorCode, GatewaySetupError, GatewaySetupErrorCode } from './errors';

/** Which `Host` and `Origin` headers the gateway accepts; build with {@link resolveOriginPolicy}. */
export interface OriginPolicy {
  /** True with `gateway.tokens`: any `Host` is fine, and origins in {@link allowedOrigins} too. */
  readonly tokensRequired: boolean;
  /** Serialized origins (`https://app.example.com`, `http://host:8080`) accepted besides loopback ones. */
  readonly allowedOrigins: ReadonlySet<string>;
}

/** The headers {@link checkRequestOrigin} looks at (Node gives a repeated header as an array or joined). */
export interface OriginHeaders {
  readonly host?: string | readonly string[] | undefined;
  readonly origin?: string | readonly string[] | undefined;
}

/**
 * Builds the policy from `gateway.tokens` (whether any are configured) and `gateway.allowed_origins`.
 * Each entry is reduced to its origin (`https://App.example.com/` -> `https://app.example.com`),
 * the form browsers send.
 * @throws GatewaySetupError `invalid_origin` naming `gateway.allowed_origins[i]` for an entry that is
 *   not an http(s) origin (a path, query, credentials or another scheme).
 */
export function resolveOriginPolicy(tokensRequired: boolean, allowedOrigins: readonly string[] = []): OriginPolicy {
  const origins = new Set<string>();
  allowedOrigins.forEach((entry, i) => {
    const origin = plainOrigin(entry);
    if (origin === null) {
      throw new GatewaySetupError(
        GatewaySetupErrorCode.InvalidOrigin,
        `gateway.allowed_origins[${i}]: "${entry}" is not an http(s) origin (expected scheme://host[:port], e.g. https://app.example.com)`,
      );
    }
    origins.add(origin);
  });
  return { tokensRequired, allowedOrigins: origins };
}

/** `scheme://host[:port]` of an http(s) URL that has nothing else (a trailing `/` is fine), else null. */
function plainOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
  return url.origin;
}

/** `Host` = a loopback name or address, with or without a port (`127.0.0.1:8787`, `[::1]`, `localhost`). */
export function isLoopbackHostHeader(value: string): boolean {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s]+)(?::\d{1,5})?$/i.exec(value.trim());
  return match?.[1] !== undefined && isLoopbackHost(match[1]);
}

/**
 * `Origin` = a page served from this machine: `http(s)://` + a loopback name or address, any port.
 * Only the exact serialized form browsers send counts (no path, no credentials; `null` does not).
 */
export function isLoopbackOrigin(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value && isLoopbackHost(url.hostname);
}

const single = (value: string | readonly string[] | undefined): string | undefined =>
  // A repeated header is ambiguous: join it, so it matches nothing and is refused.
  typeof value === 'string' || value === undefined ? value : value.join(', ');

/**
 * Whether a request may proceed, from its `Host` and `Origin` headers alone.
 * - Without tokens: `Host` must be loopback, and an `Origin`, when present, must be loopback.
 * - With tokens: an `Origin`, when present, must be loopback or in `gateway.allowed_origins`.
 * @returns null when allowed; else a `forbidden` (403) {@link GatewayError} naming the header.
 */
export function checkRequestOrigin(headers: OriginHeaders, policy: OriginPolicy): GatewayError | null {
  const host = single(headers.host);
  const origin = single(headers.origin);
  if (!policy.tokensRequired && (host === undefined || !isLoopbackHostHeader(host))) {
    return new GatewayError(
      GatewayErrorCode.Forbidden,
      `Host: ${host === undefined ? 'missing' : `"${host}" is not allowed`}; without gateway.tokens only a loopback host (127.0.0.1, [::1], localhost) is accepted`,
      'Host',
    );
  }
  if (origin === undefined || isLoopbackOrigin(origin)) return null;
  if (policy.tokensRequired && policy.allowedOrigins.has(origin)) return null;
  const allowed = policy.tokensRequired ? 'a loopback origin or one listed in gateway.allowed_origins' : 'a loopback origin (without gateway.tokens)';
  return new GatewayError(GatewayErrorCode.Forbidden, `Origin: "${origin}" is not allowed; only ${allowed} may call this gateway`, 'Origin');
}

/** A Fastify `onRequest` hook that refuses what {@link checkRequestOrigin} refuses (403). */
export function requestOriginHook(policy: OriginPolicy): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const refused = checkRequestOrigin(request.headers, policy);
    if (refused !== null) throw refused;
  };
}
