import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { requireArtist, requireUser } from '~/utils/auth.server';

/**
 * The unsubscribed-only branch (spec §2, §6): the payment step. An artist user goes to their own page (spec §6),
 * a fan already subscribed to this artist goes to the artist's page. Pages below read the artist from here.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, token } = await requireUser(request, params.artistUsername);
  if (user.artist) throw redirect(`/${user.username}`);
  const artist = await requireArtist(params.artistUsername, token, request.signal);
  if (artist.subscribed) throw redirect(`/${artist.username}`);
  return { artist };
}

export default function UnsubscribedLayout() {
  return <Outlet />;
}
