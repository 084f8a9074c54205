import fs from 'node:fs';

/** The end-to-end tests run the production build; each run gets its own data dir (playwright.config.ts). */
export default function globalSetup() {
  if (!fs.existsSync('build/server/index.js')) {
    throw new Error('The app is not built: run `npm run build` before the end-to-end tests (npm test does).');
  }
}
