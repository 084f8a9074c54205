// The app server under `npm run dev` (remix dev --manual -c "node scripts/dev.mjs"; docs/architecture.md "Dev loop").
// The Remix compiler rebuilds app/ and the running server picks the new build up by itself (server/dev-build.ts).
// This script does the rest: it bundles the process entry as `npm run build` does, watches what that bundle is made
// of (api/, contract/, server/ and what they import), and starts the server again after each rebuild of it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { context } from 'esbuild';
import { serverBundle } from './server-bundle.mjs';

// The service worker and the offline page's script too, once: pages ask for them.
await import('./build-server.mjs');

/** @type {import('node:child_process').ChildProcess | undefined} */
let server;
let stopping = false;
let queue = Promise.resolve();

const running = () => server !== undefined && server.exitCode === null && server.signalCode === null;

async function stopServer() {
  if (!running()) return;
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  // The server finishes the requests under way and its jobs (some seconds at most) and lets go of PGlite's lock.
  await exited;
}

function startServer() {
  server = spawn(process.execPath, ['--enable-source-maps', 'build/server/index.js'], { stdio: 'inherit' });
  server.on('exit', (code, signal) => {
    if (!stopping && code !== 0 && signal === null)
      console.error(`dev: the server stopped (exit code ${code}); it starts again on the next change`);
  });
}

let built = 0;
const ctx = await context({
  ...serverBundle,
  plugins: [
    {
      name: 'restart-server',
      setup(build) {
        build.onEnd((result) => {
          // A bundle that does not build leaves the last good server running; esbuild has printed why.
          if (result.errors.length || stopping) return;
          if (built++ > 0) console.log('dev: server code changed, restarting the server');
          queue = queue.then(async () => {
            await stopServer();
            if (!stopping) startServer();
          });
        });
      },
    },
  ],
});
await ctx.watch();

async function stop() {
  if (stopping) return;
  stopping = true;
  await ctx.dispose();
  await queue;
  await stopServer();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
