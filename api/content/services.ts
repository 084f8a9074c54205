import type { ApiContext } from '../context.js';
import type { MediaTools } from '../media/ffmpeg.js';
import type { MediaSigner } from '../media/signing.js';
import type { MediaStorage } from '../storage/storage.js';

/** What the content resources share beyond the api context: where media lives, how its links are signed and
 * what processes it. */
export interface ContentServices extends ApiContext {
  storage: MediaStorage;
  signer: MediaSigner;
  /** ffmpeg and ffprobe, for the processing of audio and video uploads. */
  mediaTools: MediaTools;
}
