import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * ffmpeg and ffprobe, run as child processes at the lowest CPU priority (nice 19) so pages keep their speed while a
 * file is transcoded. Which binaries (resolveMediaTools, docs/media.md "ffmpeg"): FFMPEG_PATH and FFPROBE_PATH when
 * set; else the ones on the PATH (Debian's maintained build, in the image); else the static binaries that
 * @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe ship inside their npm packages (ffmpeg 4.1, from 2018, but a
 * fresh `npm ci` has them with no download and no system package). Tests, fixtures and the bench find them the same
 * way, so a machine that runs the app runs its tests.
 */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  /**
   * Aborted when the api stops: every tool still running is killed. ffmpeg ignores SIGPIPE, so a transcode does not
   * notice that the process reading its progress has gone: without this it would encode on for nobody.
   */
  signal?: AbortSignal;
}

const require = createRequire(import.meta.url);

function installed(name: string): string | undefined {
  try {
    return (require(name) as { path: string }).path;
  } catch {
    // No binary for this platform: FFMPEG_PATH/FFPROBE_PATH must name one.
    return undefined;
  }
}

/** The first executable called `name` in a folder of the PATH, or undefined. */
export function onPath(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const folder of searchPath.split(path.delimiter)) {
    if (!folder) continue;
    const file = path.join(folder, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** Where a tool came from, for the start-up line and docs/media.md. */
export type ToolSource = 'setting' | 'system' | 'npm package';

function resolveTool(name: 'ffmpeg' | 'ffprobe', setting: string | undefined): { file: string; source: ToolSource } {
  if (setting) return { file: setting, source: 'setting' };
  const system = onPath(name);
  if (system) return { file: system, source: 'system' };
  // Neither: the npm package's binary, or the bare name (which then fails to run, and checkMediaTools says so).
  return { file: installed(`@${name}-installer/${name}`) ?? name, source: 'npm package' };
}

/** The one way anything here (the api, the tests, the bench's fixtures) finds ffmpeg and ffprobe. */
export function resolveMediaTools(
  config: { ffmpegPath?: string; ffprobePath?: string } = {},
  signal?: AbortSignal,
): MediaTools & { sources: Record<'ffmpeg' | 'ffprobe', ToolSource> } {
  const ffmpeg = resolveTool('ffmpeg', config.ffmpegPath);
  const ffprobe = resolveTool('ffprobe', config.ffprobePath);
  return { ffmpeg: ffmpeg.file, ffprobe: ffprobe.file, sources: { ffmpeg: ffmpeg.source, ffprobe: ffprobe.source }, signal };
}

/**
 * Runs `-version` on both tools once at start: a one-line reason when either cannot be run, else one line saying which
 * builds run and where they came from (an operator sees at a glance whether the 2018 npm build is the one working).
 */
export async function checkMediaTools(
  tools: MediaTools & { sources?: Record<'ffmpeg' | 'ffprobe', ToolSource> },
): Promise<{ problem: string } | { running: string }> {
  const said: string[] = [];
  for (const tool of ['ffmpeg', 'ffprobe'] as const) {
    try {
      const { stdout } = await run(tools, tool, ['-version'], { nice: false });
      const version = /version (\S+)/.exec(stdout)?.[1] ?? 'of unknown version';
      said.push(`${tool} ${version} (${tools[tool]}${tools.sources ? `, ${tools.sources[tool]}` : ''})`);
    } catch (error) {
      return {
        problem: `${tool} could not be run (${tools[tool]}): ${(error as Error).message}. Audio and video uploads will fail to process until FFMPEG_PATH and FFPROBE_PATH name working binaries.`,
      };
    }
  }
  return { running: `Media tools: ${said.join('; ')}` };
}

export class ToolError extends Error {
  constructor(
    message: string,
    /** The tool's last lines of stderr. */
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  /** Run at the lowest priority (the default). */
  nice?: boolean;
  /** Called with what the tool writes on file descriptor 3 (a raw PCM stream, say). */
  onExtraOutput?: (stream: Readable) => void;
}

/**
 * Runs a tool and resolves with its stdout and stderr, or rejects with a ToolError holding the end of its stderr. A
 * tool still running when the api stops (tools.signal) is killed, and its run rejects.
 */
export function run(
  tools: MediaTools,
  tool: 'ffmpeg' | 'ffprobe',
  args: string[],
  options: RunOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  const file = tools[tool];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe', ...(options.onExtraOutput ? (['pipe'] as const) : [])],
      signal: tools.signal,
      killSignal: 'SIGKILL',
    });
    if (options.nice !== false && child.pid) {
      try {
        os.setPriority(child.pid, 19);
      } catch {
        // Not permitted here: it runs at normal priority.
      }
    }
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      // Only the JSON of ffprobe is kept whole; ffmpeg's progress lines are read and dropped.
      if (stdout.length < 4_000_000) stdout += chunk;
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-64_000);
    });
    if (options.onExtraOutput) options.onExtraOutput(child.stdio[3] as Readable);
    child.on('error', (error) => reject(new ToolError(error.message, '')));
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new ToolError(`${file.split('/').pop()} exited with ${signal ?? code}`, stderr.trim().split('\n').slice(-5).join('\n')));
    });
  });
}

/**
 * Kills the tools still working in a folder (a path in their arguments) whose process has died: a transcode orphaned
 * by a crash (SIGKILL, the machine's OOM killer) encodes on to its end otherwise. Reads Linux's /proc; elsewhere it
 * does nothing.
 */
export function killToolsWorkingIn(folder: string) {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const tool = args[0]?.split('/').pop() ?? '';
      if (/^ff(mpeg|probe)/.test(tool) && args.some((arg) => arg === folder || arg.startsWith(folder + path.sep)))
        process.kill(Number(name), 'SIGKILL');
    } catch {
      // Ended while we looked, or not ours to read.
    }
  }
}
