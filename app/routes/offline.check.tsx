import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { CHECK_LIMIT, type OfflineCheck } from '~/offline/saved';
import { apiFor, isHttpError } from '~/utils/api.server';
import { getOptionalUser } from '~/utils/auth.server';
import { getItem } from '~/utils/content.server';

/**
 * GET /offline/check?id=…&id=… (docs/listening.md "Offline"): which of the items saved in this browser the signed-in
 * fan can still open, for the service worker to delete the others. Each item is read as its page reads it
 * (GET /content/{id}), so the rule is the vault's own: a refund, a dispute, a membership that ended for an item not
 * theirs to keep (403) and a deleted item (404) are not playable. Nobody signed in: `userId` null, nothing playable.
 * Any other failure is a 5xx, which the worker takes as "unknown" and keeps everything.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const ids = [...new Set(new URL(args.request.url).searchParams.getAll('id'))].filter(Boolean).slice(0, CHECK_LIMIT);
  const user = await getOptionalUser(api);
  const playable = user
    ? await Promise.all(
        ids.map((id) =>
          getItem(api, id, [401, 403, 404]).then(
            () => id,
            (error: unknown) => {
              if (isHttpError(error, 401, 403, 404)) return null;
              throw error;
            },
          ),
        ),
      )
    : [];
  const answer: OfflineCheck = { userId: user?.id ?? null, playable: playable.filter((id): id is string => id !== null) };
  return json(answer, { headers: { 'Cache-Control': 'no-store' } });
}
