import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { apiFor } from '~/utils/api.server';
import { isOwnArtist, requireSubscriber } from '~/utils/auth.server';
import type { Artist } from '~/utils/mappers';

/**
 * The subscribed branch (spec §2, §6): a viewer who is neither subscribed nor the artist goes to
 * /{artist}/subscribe; the artist's own pages need no subscription. The pages below read the artist from here
 * (useRouteLoaderData), so it is fetched once per navigation.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { user, artist } = await requireSubscriber(apiFor(args), args.params.artistUsername);
  return { artist: pageArtist(artist), isOwner: isOwnArtist(user, artist) };
}

export { skipAfterMessageActions as shouldRevalidate } from '~/utils/revalidation';

/**
 * What the pages below show of the artist: the header and the sections' introductions. The rest of the profile (the
 * offer, the success messages, the privacy policy) is the business of the pages that show it, and would only make
 * every page of the club heavier, since loader data is written into the page again for hydration.
 */
function pageArtist(artist: Artist) {
  const { id, name, username, bio, avatarUrl, coverUrl, heroImage, headlineImage, headlineImageAltText, subscribers, welcomeVideoUrl } =
    artist;
  const { vaultPageIntroduction, postsPageIntroduction } = artist;
  return {
    id,
    name,
    username,
    bio,
    avatarUrl,
    coverUrl,
    heroImage,
    headlineImage,
    headlineImageAltText,
    subscribers,
    welcomeVideoUrl,
    vaultPageIntroduction,
    postsPageIntroduction,
  };
}

export default function SubscribedLayout() {
  return <Outlet />;
}
