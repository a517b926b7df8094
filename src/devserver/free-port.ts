import net from 'node:net';

/**
 * Distinct TCP ports that were free on `host` a moment ago, found by binding port 0.
 *
 * All sockets stay open until every port is chosen so the same port is never returned twice. Another
 * process may still take a port before the caller binds it; callers treat that as a start failure.
 */
export async function pickFreePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const server = net.createServer();
      servers.push(server);
      ports.push(await listenOnRandomPort(server, host));
    }
    return ports;
  } finally {
    await Promise.all(servers.map(closeServer));
  }
}

function listenOnRandomPort(server: net.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error(`Could not read the port bound on ${host}`));
        return;
      }
      resolve(address.port);
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
  });
}
