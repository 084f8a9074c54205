import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import type { Readable } from 'node:stream';

/**
 * ffmpeg and ffprobe, run as child processes at the lowest CPU priority (nice 19) so pages keep their speed while a
 * file is transcoded. By default they are the static binaries that @ffmpeg-installer/ffmpeg and
 * @ffprobe-installer/ffprobe ship inside their npm packages (a fresh `npm ci` has them, with no download of its own);
 * FFMPEG_PATH and FFPROBE_PATH name others (Debian's /usr/bin/ffmpeg, say). docs/media.md.
 */
export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
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

export function resolveMediaTools(config: { ffmpegPath?: string; ffprobePath?: string }): MediaTools {
  return {
    ffmpeg: config.ffmpegPath ?? installed('@ffmpeg-installer/ffmpeg') ?? 'ffmpeg',
    ffprobe: config.ffprobePath ?? installed('@ffprobe-installer/ffprobe') ?? 'ffprobe',
  };
}

/** A one-line reason when either tool cannot be run (said once at start), or undefined when both answer. */
export async function checkMediaTools(tools: MediaTools): Promise<string | undefined> {
  for (const [name, file] of Object.entries(tools)) {
    try {
      await run(file, ['-version'], { nice: false });
    } catch (error) {
      return `${name} could not be run (${file}): ${(error as Error).message}. Audio and video uploads will fail to process until FFMPEG_PATH and FFPROBE_PATH name working binaries.`;
    }
  }
  return undefined;
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
 * Runs a tool and resolves with its stdout and stderr, or rejects with a ToolError holding the end of its stderr.
 * The tool writes its progress to stdout (`-progress pipe:1` for ffmpeg): were this process killed, the next write
 * fails and the orphaned ffmpeg stops, instead of transcoding on for nothing.
 */
export function run(file: string, args: string[], options: RunOptions = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe', ...(options.onExtraOutput ? (['pipe'] as const) : [])] });
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
