import type { Express } from 'express';
import type { AddressInfo } from 'node:net';

/** Serves an express app on a free loopback port: its base URL, and how to stop it. */
export async function listenLocal(app: Express) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
