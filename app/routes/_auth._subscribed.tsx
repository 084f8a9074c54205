import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { apiFor } from '~/utils/api.server';
import { isOwnArtist, requireSubscriber } from '~/utils/auth.server';

/**
 * The subscribed branch (spec §2, §6): a viewer who is neither subscribed nor the artist goes to
 * /{artist}/subscribe; the artist's own pages need no subscription. The pages below read the artist from here
 * (useRouteLoaderData), so it is fetched once per navigation.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { user, artist } = await requireSubscriber(apiFor(args), args.params.artistUsername);
  return { artist, isOwner: isOwnArtist(user, artist) };
}

export default function SubscribedLayout() {
  return <Outlet />;
}
