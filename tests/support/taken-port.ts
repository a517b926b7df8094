import net from 'node:net';

/**
 * A loopback port held by another listener, as a process that took it would. It hangs up on anyone
 * who connects, so a readiness probe cannot keep a socket open there.
 */
export async function takenPort(): Promise<{ port: number; release: () => void }> {
  const blocker = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const address = blocker.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, release: () => blocker.close() };
}
