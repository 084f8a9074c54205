import type { Server } from 'node:http';
import { createApi, type Api } from '../api/app.js';
import { isNewPgliteDir, openDb, type Db } from '../api/db/client.js';
import { acquireLock, DatabaseLockedError, writeAdminToken, type DatabaseLock } from '../api/db/lock.js';
import { migrate } from '../api/db/migrate.js';
import { seedIfEmpty } from '../api/db/seed.js';
import { createMediaStorage } from '../api/storage/index.js';
import { ConfigError, parseConfig } from '#contract/config';
import { redactConsole } from './console-redaction.js';
import { webApiTransport } from './api-transport.js';
import { createWebServer } from './web.js';
import { startWebProcesses } from './web-processes.js';
import { seedInChild } from './seed-child.js';

/** The process entry: only wiring. SERVE=all (default) runs api and web together; web or api runs one tier. */
async function main() {
  // Before anything can log: no line of the web tier carries a secret (the api's logger redacts its own).
  redactConsole();
  let config;
  try {
    config = parseConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let db: Db | undefined;
  let api: Api | undefined;
  let web: Server | undefined;
  let lock: DatabaseLock | undefined;
  let webProcesses: ReturnType<typeof startWebProcesses> | undefined;
  let apiUrl = config.apiUrl;

  if (config.serve !== 'web') {
    let adminToken: string | undefined;
    // A first start on a new PGlite directory seeds before this process opens it (PGlite has one owner at a time).
    const seeded = config.seedDemo && !config.databaseUrl && isNewPgliteDir(config.dataDir) && seedInChild();
    if (!config.databaseUrl) {
      // PGlite is single-process: hold its lock for as long as we run, and let the CLI work through us.
      try {
        lock = acquireLock(config.dataDir, 'server');
      } catch (error) {
        if (error instanceof DatabaseLockedError) {
          console.error(error.message);
          process.exit(1);
        }
        throw error;
      }
      const held = lock;
      process.on('exit', () => held.release());
      adminToken = writeAdminToken(config.dataDir);
    }
    db = config.databaseUrl ? await openDb({ databaseUrl: config.databaseUrl }) : await openDb({ dataDir: config.dataDir });
    const applied = await migrate(db);
    if (applied.length) console.log(`database: applied ${applied.join(', ')}`);
    const storage = createMediaStorage(config);
    // PostgreSQL has room for two clients: the child seeds beside this process.
    const elsewhere = config.databaseUrl ? seedInChild : undefined;
    if (seeded || (config.seedDemo && (await seedIfEmpty(db, { storage }, elsewhere))))
      console.log('database: seeded demo content (see README for logins)');
    api = await createApi({ config, db, adminToken });
    const apiPort = await api.listen(config.apiPort, config.host);
    apiUrl = `http://${loopbackFor(config.host)}:${apiPort}`;
    lock?.setApiUrl(apiUrl);
    console.log(`api listening on http://localhost:${apiPort}`);
    if (config.metrics.port !== undefined) {
      const metricsPort = await api.listenMetrics(config.metrics.port, config.host);
      console.log(`metrics on http://localhost:${metricsPort}/metrics`);
    }
    await api.startWorkers();
  }
  if (config.serve === 'all' && config.webProcesses > 1) {
    webProcesses = startWebProcesses(config.webProcesses, apiUrl);
    await webProcesses.ready;
    console.log(`web listening on http://localhost:${config.port} (${config.webProcesses} processes)`);
  } else if (config.serve !== 'api') {
    // With the api in this process, its /metrics shows the pages too.
    const app = await createWebServer(config, webApiTransport(config, api), { pageRendered: api?.ctx.metrics.pageRendered });
    web = await new Promise<Server>((resolve) => {
      const server = app.listen(config.port, config.host, () => resolve(server));
    });
    console.log(`web listening on http://localhost:${config.port}`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests, then stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Requests under way finish; keep-alive connections left idle afterwards are closed as they become idle.
    const idle = setInterval(() => web?.closeIdleConnections(), 200);
    await new Promise<void>((resolve) => (web ? web.close(() => resolve()) : resolve()));
    clearInterval(idle);
    await webProcesses?.stop();
    // The api's close lets the jobs under way finish (8 s at most), then stops its workers.
    await api?.close();
    await db?.close();
    lock?.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Where this machine reaches the api it just bound: loopback for a wildcard address, else the address itself. */
function loopbackFor(host: string) {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
