import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkMediaTools, onPath, resolveMediaTools } from '../../api/media/ffmpeg';

/** Which ffmpeg runs: the setting, else a maintained one on the PATH, else the npm package's 2018 build. */
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-tools-'));
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
});
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function fakeTool(name: string, executable = true) {
  const file = path.join(folder, name);
  fs.writeFileSync(file, '#!/bin/sh\necho "fake version 9.9"\n', { mode: executable ? 0o755 : 0o644 });
  return file;
}

it('prefers FFMPEG_PATH/FFPROBE_PATH, then the PATH, then the npm package', () => {
  const system = fakeTool('ffmpeg');
  process.env.PATH = `/nonexistent${path.delimiter}${folder}`;
  const onThePath = resolveMediaTools({});
  expect(onThePath.ffmpeg).toBe(system);
  expect(onThePath.sources.ffmpeg).toBe('system');
  // No ffprobe in that folder: the npm package's, on its own.
  expect(onThePath.ffprobe).toMatch(/@ffprobe-installer\/.+\/ffprobe$/);
  expect(onThePath.sources.ffprobe).toBe('npm package');

  const pinned = resolveMediaTools({ ffmpegPath: '/opt/ff/ffmpeg', ffprobePath: '/opt/ff/ffprobe' });
  expect(pinned).toMatchObject({
    ffmpeg: '/opt/ff/ffmpeg',
    ffprobe: '/opt/ff/ffprobe',
    sources: { ffmpeg: 'setting', ffprobe: 'setting' },
  });

  process.env.PATH = '';
  expect(resolveMediaTools({}).ffmpeg).toMatch(/@ffmpeg-installer\/.+\/ffmpeg$/);
});

it('passes over a file on the PATH that is not executable, and folders of that name', () => {
  fakeTool('ffprobe', false);
  fs.mkdirSync(path.join(folder, 'sub', 'ffprobe'), { recursive: true });
  expect(onPath('ffprobe', `${path.join(folder, 'sub')}${path.delimiter}${folder}`)).toBeUndefined();
});

it('says at start which builds run and where they came from, or why one cannot run', async () => {
  const ffmpeg = fakeTool('ffmpeg');
  const said = await checkMediaTools({ ffmpeg, ffprobe: ffmpeg, sources: { ffmpeg: 'system', ffprobe: 'setting' } });
  expect(said).toEqual({ running: `Media tools: ffmpeg 9.9 (${ffmpeg}, system); ffprobe 9.9 (${ffmpeg}, setting)` });
  const missing = await checkMediaTools({ ffmpeg, ffprobe: path.join(folder, 'absent') });
  expect('problem' in missing && missing.problem).toMatch(/^ffprobe could not be run .*absent/);
});
