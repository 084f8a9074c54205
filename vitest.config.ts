import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '~': path.resolve(__dirname, 'app'), '#contract': path.resolve(__dirname, 'contract') };

/** Three projects: unit (node), component (jsdom), api (node, real HTTP over PGlite or PostgreSQL). */
export default defineConfig({
  resolve: { alias },
  esbuild: { jsx: 'automatic' },
  test: {
    globals: true,
    // Api test files each start their own api on their own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/component/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/api/pglite-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
