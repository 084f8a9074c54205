import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { readCheckIds } from '#contract/offline';
import type { OfflineCheck } from '~/offline/saved';
import { apiFor, isHttpError } from '~/utils/api.server';
import { getOptionalUser } from '~/utils/auth.server';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * GET /offline/check?id=…&id=… (docs/listening.md "Offline"): which of the items saved in this browser the signed-in
 * fan can still open, for the service worker to delete the others. The api answers for all of them at once
 * (GET /content/offline-check), by the vault's own rule: a refund, a dispute, a membership that ended for an item not
 * theirs to keep and a deleted item are not playable. Nobody signed in: `userId` null, nothing playable.
 * Ids that are no item ids, or more than OFFLINE_CHECK_LIMIT of them, are a 400; too many checks a 429 (the worker
 * keeps everything on any failure, as it does offline).
 */
export async function loader(args: LoaderFunctionArgs) {
  const read = readCheckIds(new URL(args.request.url).searchParams.getAll('id'));
  if ('error' in read) return json({ status: 400, message: read.error }, { status: 400, headers: NO_STORE });
  const api = apiFor(args);
  const user = await getOptionalUser(api);
  let playable: string[] = [];
  if (user && read.ids.length) {
    try {
      const body = await api.get<{ data: { playable: string[] } }>('/content/offline-check', {
        params: { id: read.ids },
        handle: [400, 401, 429],
      });
      playable = body.data.playable;
    } catch (error) {
      if (isHttpError(error, 400, 429)) {
        return json(
          { status: error.status, message: error.message },
          { status: error.status, headers: { ...NO_STORE, ...(error.status === 429 ? { 'Retry-After': '60' } : {}) } },
        );
      }
      // The session ended between the two calls: nobody is signed in.
      if (!isHttpError(error, 401)) throw error;
      return json({ userId: null, playable: [] } satisfies OfflineCheck, { headers: NO_STORE });
    }
  }
  const answer: OfflineCheck = { userId: user?.id ?? null, playable };
  return json(answer, { headers: NO_STORE });
}
