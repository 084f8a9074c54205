import cluster, { type Worker } from 'node:cluster';

/**
 * The web tier as several processes of this machine (WEB_PROCESSES, docs/operations.md "Using the cores"): this
 * process keeps the api, and each web process is this same program started with SERVE=web, reaching the api over
 * loopback HTTP. They share the web port: Node's cluster hands each new connection to the next process in turn. A
 * web process that dies is started again; `stop` lets each finish the pages under way.
 */
export function startWebProcesses(count: number, apiUrl: string) {
  let stopping = false;
  const env = { SERVE: 'web', WEB_PROCESSES: '1', API_URL: apiUrl };
  const start = () =>
    new Promise<Worker>((resolve, reject) => {
      const worker = cluster.fork(env);
      worker.once('listening', () => resolve(worker));
      worker.once('exit', (code) => reject(new Error(`a web process stopped while starting (exit code ${code})`)));
    });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`web process ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}): starting another`);
    start().catch((error) => console.error(error.message));
  });

  return {
    ready: Promise.all(Array.from({ length: count }, start)),
    async stop() {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker));
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              worker.once('exit', () => resolve());
              worker.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
