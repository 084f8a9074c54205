import express from 'express';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listenLocal } from '../helpers/listen';
import { publicFiles } from '../../server/public-files';

let dir: string;
let url: string;
let close: () => void;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-public-'));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.mkdirSync(path.join(dir, 'images'));
  fs.writeFileSync(path.join(dir, 'images', 'wordmark.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><title>w</title></svg>');
  fs.mkdirSync(path.join(dir, 'build'));
  fs.writeFileSync(path.join(dir, 'build', 'entry.js'), 'export {};');
  const app = express();
  app.use(publicFiles(dir));
  app.use((_req, res) => res.status(404).type('text/plain').send('the page handler'));
  ({ url, close } = await listenLocal(app));
});
afterAll(() => {
  close?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('public files', () => {
  it('serves the files at the top of public/ and in its folders, cached for an hour', async () => {
    const favicon = await fetch(`${url}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await favicon.text()).toContain('<svg');
    const image = await fetch(`${url}/images/wordmark.svg`);
    expect(image.status).toBe(200);
    expect(await image.text()).toContain('<title>w</title>');
  });

  it('hands every other path to the pages without asking the file system', async () => {
    const stat = vi.spyOn(fs, 'stat');
    try {
      for (const pathname of ['/thelatenights', '/thelatenights/vault?sort=asc', '/login', '/']) {
        const res = await fetch(`${url}${pathname}`);
        expect(await res.text()).toBe('the page handler');
      }
      expect(stat).not.toHaveBeenCalled();
      await (await fetch(`${url}/favicon.svg`)).arrayBuffer();
      expect(stat).toHaveBeenCalled();
    } finally {
      stat.mockRestore();
    }
  });

  it('leaves the build to its own handler, and a missing file under a public folder to the pages', async () => {
    expect(await (await fetch(`${url}/build/entry.js`)).text()).toBe('the page handler');
    expect(await (await fetch(`${url}/images/nope.png`)).text()).toBe('the page handler');
  });
});
