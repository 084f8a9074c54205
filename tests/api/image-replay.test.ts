import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { wavFile } from '../../api/media/wav';
import { exited, freePort, until } from '../helpers/process';

/**
 * The Dockerfile, followed as Docker would follow it, with no Docker daemon (there is none on this machine or CI's):
 * each stage is a folder standing for its /app; COPY copies from the build context (less .dockerignore) or from an
 * earlier stage's folder and fails when a file it names is missing; the build stages' RUN lines run as written
 * (npm ci from npm's cache when it has the packages); the runtime stage gets only what its COPY lines bring, and is
 * started with its CMD as an unprivileged user, its ENV and an empty DATA_DIR. Then, as an operator would check it:
 * /healthz on both ports, an audio upload processed by the ffmpeg the image runs, and SIGTERM exiting 0.
 *
 * What it cannot do without a daemon is said where it stands in: the runtime stage's apt-get (ffmpeg from Debian)
 * and `mkdir /data` are checked for, not run, and the base image is this machine's Node, not node:20-bookworm-slim.
 */
const ROOT = path.resolve(__dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-image-'));
afterAll(() => fs.promises.rm(work, { recursive: true, force: true }), 300_000);

interface Step {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name: string;
  steps: Step[];
}

/** The Dockerfile's stages: instructions joined across continuation lines, comments left out. */
export function parseDockerfile(text: string): Stage[] {
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ from, name: name ?? String(stages.length), steps: [] });
    } else stages.at(-1)!.steps.push({ op: op.toUpperCase(), args: args.replace(/\s+/g, ' ') });
  }
  return stages;
}

/** `--flag=value` options, then the sources and the destination. */
function copyArgs(args: string) {
  const words = args.split(' ');
  const flags = Object.fromEntries(
    words.filter((word) => word.startsWith('--')).map((word) => word.slice(2).split('=') as [string, string]),
  );
  const paths = words.filter((word) => !word.startsWith('--'));
  return { flags, sources: paths.slice(0, -1), destination: paths.at(-1)! };
}

const ignored = fs
  .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim().replace(/^\/|\/$/g, ''))
  .filter((line) => line && !line.startsWith('#'));
const inContext = (relative: string) => !ignored.some((pattern) => relative === pattern || relative.startsWith(`${pattern}/`));

function copy(fromRoot: string, source: string, toRoot: string, destination: string, fromContext: boolean) {
  // Another stage's /app is its folder.
  const from = path.join(fromRoot, fromContext ? source : path.relative('/app', source));
  expect(fs.existsSync(from), `COPY names ${source}, which is not there`).toBe(true);
  const into = destination.endsWith('/') || destination === '.' || destination === './';
  const to = path.join(toRoot, destination, into && source !== '.' ? path.basename(source) : '');
  fs.cpSync(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (file) => !fromContext || inContext(path.relative(fromRoot, file)),
  });
}

/** This process's environment less NODE_ENV (vitest sets it to test; a Docker build stage has none). */
function withoutNodeEnv() {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.NODE_ENV;
  return env;
}

/** A build stage's RUN line, as written (async: a long synchronous spawn would stall vitest's worker). */
async function run(command: string, cwd: string) {
  const child = spawn('sh', ['-c', command], {
    cwd,
    // npm's cache first, so the replay asks the registry only for what this machine has never fetched.
    env: { ...withoutNodeEnv(), npm_config_prefer_offline: 'true', npm_config_loglevel: 'error' } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000)));
  await exited(child);
  expect(child.exitCode, `RUN ${command}\n${output}`).toBe(0);
}

/** The user the runtime stage runs as: `nobody` when the test runs as root, else the (already unprivileged) tester. */
function unprivileged() {
  if (process.getuid?.() !== 0) return {};
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('nobody:'));
  const [, , uid, gid] = line!.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

it(
  'the image builds, runs as an unprivileged user on an empty data folder, answers /healthz on both ports, processes an audio upload and stops cleanly',
  { timeout: 900_000 },
  async () => {
    const stages = parseDockerfile(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    const folders = new Map<string, string>();
    const runtime = stages.at(-1)!;
    const env: Record<string, string> = {};
    let cmd: string[] = [];
    const systemSteps: string[] = [];

    for (const stage of stages) {
      // A stage built FROM an earlier one goes on in its folder; FROM an image starts an empty one.
      const folder = folders.get(stage.from) ?? fs.mkdtempSync(path.join(work, `${stage.name}-`));
      folders.set(stage.name, folder);
      for (const { op, args } of stage.steps) {
        if (op === 'WORKDIR') expect(args, 'every stage works in /app, which its folder stands for').toBe('/app');
        else if (op === 'COPY') {
          const { flags, sources, destination } = copyArgs(args);
          const from = flags.from ? folders.get(flags.from) : ROOT;
          expect(from, `COPY --from=${flags.from} names no earlier stage`).toBeDefined();
          for (const source of sources) copy(from!, source, folder, destination, !flags.from);
        } else if (op === 'RUN' && stage !== runtime) await run(args, folder);
        else if (op === 'RUN') systemSteps.push(args);
        else if (op === 'ENV' && stage === runtime)
          for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) env[key] = value.replace(/^"|"$/g, '');
        else if (op === 'CMD') cmd = JSON.parse(args) as string[];
        else expect(['USER', 'VOLUME', 'EXPOSE', 'HEALTHCHECK', 'ENV'], `the replay does not know ${op}`).toContain(op);
      }
    }

    // The runtime stage's system steps, which need the base image's Debian: checked for, not run.
    expect(systemSteps).toHaveLength(2);
    expect(systemSteps[0]).toMatch(/apt-get install .*\bffmpeg\b/);
    expect(systemSteps[1]).toBe('mkdir -p /data && chown node:node /data');
    expect(runtime.steps.find((step) => step.op === 'USER')?.args).toBe('node');

    // Only what the runtime stage copied: no sources, no dev dependencies.
    const app = folders.get(runtime.name)!;
    expect(fs.readdirSync(app).sort()).toEqual(['build', 'node_modules', 'package.json', 'public']);
    expect(fs.existsSync(path.join(app, 'node_modules', 'vitest')), 'dev dependencies pruned').toBe(false);
    expect(fs.existsSync(path.join(app, 'node_modules', '@ffmpeg-installer')), 'npm’s ffmpeg as the fallback').toBe(true);

    // Readable by the unprivileged user (as the image's files are, root's but world-readable); its data folder its own.
    for (let folder = app; folder !== path.dirname(work); folder = path.dirname(folder)) fs.chmodSync(folder, 0o755);
    const user = unprivileged();
    // Its data folder and its /tmp its own, as a container's are (this machine's /tmp holds root's work folders).
    const [data, tmp] = ['data-', 'tmp-'].map((prefix) => fs.mkdtempSync(path.join(work, prefix)));
    if (user.uid !== undefined) for (const folder of [data, tmp]) fs.chownSync(folder, user.uid, user.gid);
    const [webPort, apiPort] = [await freePort(), await freePort()];
    const [program, ...args] = cmd;
    expect(program).toBe('node');
    const child = spawn(process.execPath, args, {
      cwd: app,
      ...user,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        ...env,
        DATA_DIR: data,
        TMPDIR: tmp,
        PORT: String(webPort),
        API_PORT: String(apiPort),
        PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
        PUBLIC_WEB_URL: `http://127.0.0.1:${webPort}`,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      for (const port of [webPort, apiPort]) {
        await until(
          `/healthz on ${port}`,
          async () => {
            if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
            return (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok || undefined;
          },
          120_000,
          () => output,
        );
      }
      expect(output).toMatch(/Media tools: ffmpeg \S+ \(/);

      // The demo club (seeded on an empty database), and a tone uploaded as its artist.
      const api = `http://127.0.0.1:${apiPort}`;
      const login = await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'latenights@stagedoor.test', password: 'Stagedoor-artist-2026!' }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      const { token } = ((await login.json()) as { data: { token: string } }).data;
      const rate = 8000;
      const samples = Buffer.alloc(rate * 2);
      for (let i = 0; i < samples.length; i++) samples[i] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 330 * i) / rate));
      const form = new FormData();
      form.append('file', new Blob([wavFile(samples, rate)], { type: 'audio/wav' }), 'tone.wav');
      const upload = await fetch(`${api}/media?kind=audio`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      expect(upload.status, await upload.clone().text()).toBe(201);
      const { _id: mediaId } = ((await upload.json()) as { data: { _id: string } }).data;
      const item = await fetch(`${api}/content`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Image check', content: 'listen', tags: 'demo', mediaId }),
      });
      expect(item.status, await item.clone().text()).toBe(201);
      const { _id: itemId } = ((await item.json()) as { data: { _id: string } }).data;
      let lastSeen = '';
      const status = await until(
        'the upload to be processed',
        async () => {
          const answer = await fetch(`${api}/content/${itemId}`, { headers: { Authorization: `Bearer ${token}` } });
          const media = ((await answer.json()) as { data: { media: { status: string } | null } }).data.media;
          lastSeen = JSON.stringify(media);
          return media?.status === 'processing' ? undefined : media?.status;
        },
        120_000,
        () => `${lastSeen}\n${output}`,
      );
      expect(status, output).toBe('ready');

      child.kill('SIGTERM');
      await exited(child);
      expect(child.exitCode, output).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  },
);

it('reads the Dockerfile as Docker does: stages, continuation lines, COPY flags', () => {
  const stages = parseDockerfile(
    'FROM a AS one\nWORKDIR /app\n# note\nRUN x \\\n  && y\nFROM one AS two\nCOPY --from=one --chown=a:b ./x ./y/\n',
  );
  expect(stages).toEqual([
    {
      from: 'a',
      name: 'one',
      steps: [
        { op: 'WORKDIR', args: '/app' },
        { op: 'RUN', args: 'x && y' },
      ],
    },
    { from: 'one', name: 'two', steps: [{ op: 'COPY', args: '--from=one --chown=a:b ./x ./y/' }] },
  ]);
  expect(copyArgs('--from=one --chown=a:b ./x ./y/')).toEqual({
    flags: { from: 'one', chown: 'a:b' },
    sources: ['./x'],
    destination: './y/',
  });
});
