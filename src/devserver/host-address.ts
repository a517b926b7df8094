import net from 'node:net';

/**
 * The host a local client should dial for a server bound to `ip`: a wildcard bind (`0.0.0.0`, `::`)
 * is not a dialable address, so use the loopback of the same family.
 */
export function dialableHost(ip: string): string {
  if (ip === '0.0.0.0') return '127.0.0.1';
  if (ip === '::') return '::1';
  return ip;
}

/** `host:port`, with IPv6 literals bracketed as gRPC targets and URLs require. */
export function hostPort(host: string, port: number): string {
  return net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}
