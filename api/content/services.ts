import type { ApiContext } from '../context.js';
import type { MediaSigner } from '../media/signing.js';
import type { MediaStorage } from '../storage/storage.js';

/** What the content resources share beyond the api context: where media lives and how its links are signed. */
export interface ContentServices extends ApiContext {
  storage: MediaStorage;
  signer: MediaSigner;
}
