/** How the process entry and the operator CLI are bundled: by `npm run build` and, watched, by `npm run dev`. */
export const serverBundle = {
  entryPoints: { index: 'server/index.ts', cli: 'api/cli.ts' },
  outdir: 'build/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};
