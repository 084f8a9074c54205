import net from 'node:net';

/** A loopback port nobody is listening on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Polls until the probe has an answer. A probe that throws counts as "not yet", so probes assert nothing: what
 * they saw is checked after, and `seen` tells on a timeout.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, seen?: () => string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen ? ` (seen: ${seen()})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
