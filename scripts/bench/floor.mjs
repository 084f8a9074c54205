// The floors every figure is set against, measured in the same run on the same machine:
//  - a minimal Remix 2 page (React and the Remix runtime alone), built with the project's remix.config.js and
//    served by the project's own web server module (server/web.ts: compression, static files, Remix handler);
//  - a bare Node `http` server answering a small JSON document.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { NODE_FLAGS, ROOT, startProcess } from './lib.mjs';

const ROOT_TSX = `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from '@remix-run/react';

export default function App() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
`;

const INDEX_TSX = `import { json, type MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

export const meta: MetaFunction = () => [{ title: 'Floor' }];

export function loader() {
  return json({ greeting: 'Hello from the floor' });
}

export default function Index() {
  const { greeting } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{greeting}</h1>
      <p>A minimal Remix 2 page: React and the Remix runtime alone.</p>
    </main>
  );
}
`;

/** Generates, builds and bundles the floor app in a temporary folder; answers the folder. */
const pick = (from, names) => Object.fromEntries(names.filter((n) => from?.[n]).map((n) => [n, from[n]]));

export async function buildFloor() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-bench-floor-'));
  fs.mkdirSync(path.join(dir, 'app/routes'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'public'), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'stagedoor-bench-floor',
        private: true,
        type: 'module',
        sideEffects: false,
        // The compiler reads the runtime from here; the versions are the app's.
        dependencies: pick(pkg.dependencies, [
          '@remix-run/express',
          '@remix-run/node',
          '@remix-run/react',
          'compression',
          'express',
          'isbot',
          'react',
          'react-dom',
        ]),
        devDependencies: pick(pkg.devDependencies, ['@remix-run/dev', 'tailwindcss', 'typescript']),
      },
      null,
      2,
    ),
  );
  // The same compiler configuration as the app.
  fs.copyFileSync(path.join(ROOT, 'remix.config.js'), path.join(dir, 'remix.config.js'));
  for (const file of ['tsconfig.json', 'remix.env.d.ts', 'tailwind.config.ts']) {
    if (fs.existsSync(path.join(ROOT, file))) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  fs.writeFileSync(path.join(dir, 'app/root.tsx'), ROOT_TSX);
  fs.writeFileSync(path.join(dir, 'app/routes/_index.tsx'), INDEX_TSX);
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/@remix-run/dev/dist/cli.js'), 'build'], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The app's web server module and its configuration (defaults included), bundled as the app's build bundles them
  // (packages stay external).
  await build({
    entryPoints: { web: path.join(ROOT, 'server/web.ts'), config: path.join(ROOT, 'contract/config.ts') },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return dir;
}

/** Starts the floor servers (the Remix floor on remixPort, bare http on httpPort) in one child process. */
export async function startFloor({ dir, remixPort, httpPort, logDir }) {
  const proc = await startProcess({
    name: 'floor',
    args: [...NODE_FLAGS, path.join(ROOT, 'scripts/bench/floor-server.mjs'), dir, String(remixPort), String(httpPort)],
    env: { NODE_ENV: 'production' },
    cwd: dir,
    readyUrl: `http://localhost:${remixPort}/healthz`,
    logDir,
  });
  return {
    dir,
    pid: proc.pid,
    remixUrl: `http://localhost:${remixPort}`,
    httpUrl: `http://localhost:${httpPort}`,
    stop: () => proc.stop(),
  };
}

export function floorDirCleanup(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}
