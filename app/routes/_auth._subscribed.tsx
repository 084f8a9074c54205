import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet, type ShouldRevalidateFunction } from '@remix-run/react';
import { skipAfterMessageActions } from '~/utils/realtime';
import { apiFor } from '~/utils/api.server';
import { isOwnArtist, requireSubscriber } from '~/utils/auth.server';
import type { Artist } from '~/utils/mappers';

/**
 * The subscribed branch: a viewer who is neither subscribed nor the artist goes to
 * /{artist}/subscribe, but for a lapsed member who keeps items on the pages that show them (`kept`); the artist's
 * own pages need no subscription. The pages below read the artist from here
 * (useRouteLoaderData), so it is fetched once per navigation.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { pathname } = new URL(args.request.url);
  const allowKept = KEPT_PAGES.test(pathname);
  const { user, artist } = await requireSubscriber(apiFor(args), args.params.artistUsername, { allowKept });
  const isOwner = isOwnArtist(user, artist);
  // A lapsed member keeps what was published while they paid: the vault, the posts and those items (decision 014).
  const kept = !artist.subscribed && !isOwner ? artist.keptPeriod : null;
  return { artist: pageArtist(artist), isOwner, kept };
}

/** The pages a lapsed member who keeps items may open: the vault, the posts and an item (the rest is for members). */
const KEPT_PAGES = /^\/[^/]+\/(vault(\/[^/]+)?|posts)\/?$/;

/** Leaving the pages a lapsed member may see (or coming back to them) asks the guard again. */
export { refreshWhenBackOnline as clientLoader } from '~/utils/realtime';

export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  KEPT_PAGES.test(args.currentUrl.pathname) !== KEPT_PAGES.test(args.nextUrl.pathname) || skipAfterMessageActions(args);

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
