// The bench makes its media inputs with the ffmpeg the app itself would run: the api's one resolver
// (api/media/ffmpeg.ts: FFMPEG_PATH, else the PATH's, else the npm package's), loaded through tsx's public API.
import { tsImport } from 'tsx/esm/api';

/** @type {typeof import('../../api/media/ffmpeg.ts')} */
const tools = await tsImport('../../api/media/ffmpeg.ts', import.meta.url);

/** The path of the ffmpeg to run, resolved once. */
export const ffmpeg = tools.resolveMediaTools({ ffmpegPath: process.env.FFMPEG_PATH || undefined }).ffmpeg;
