import type { AddressInfo } from 'node:net';
import { buildGatewayApp } from './app';
import { assertBindable } from './auth';
import type { GatewayDeps } from './gateway-deps';

/** Options of {@link startGateway}. */
export interface StartGatewayOptions extends GatewayDeps {
  readonly host: string;
  /** 0 = any free port. */
  readonly port: number;
}

/** A listening gateway. */
export interface GatewayServer {
  /** Base URL, e.g. `http://127.0.0.1:8787`. */
  readonly url: string;
  readonly port: number;
  /** Ends open streams, stops listening and closes connections; later calls wait for the first. */
  close(): Promise<void>;
}

/**
 * Builds the app and listens on `host:port`.
 * @throws GatewaySetupError `unsafe_host` before binding when no tokens are configured and `host` is
 *   not a loopback address; the listen error (e.g. EADDRINUSE) otherwise.
 */
export async function startGateway(options: StartGatewayOptions): Promise<GatewayServer> {
  assertBindable(options.host, options.auth);
  const app = buildGatewayApp(options);
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (err) {
    await app.close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | null = null;
  // Idempotent: a signal handler and a `finally` may both close it.
  const close = () => (closing ??= app.close());
  return { url: `http://${host}:${port}`, port, close };
}
