// Bundles the process entry and the operator CLI (our TypeScript only; packages stay external) into build/server.
import { build } from 'esbuild';

await build({
  entryPoints: { index: 'server/index.ts', cli: 'api/cli.ts' },
  outdir: 'build/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
