import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { apiFor } from '~/utils/api.server';
import { requireUnsubscribed } from '~/utils/auth.server';

/**
 * The unsubscribed-only branch: the payment step. An artist user goes to their own page,
 * a fan already subscribed to this artist goes to the artist's page. Pages below read the artist from here.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { artist } = await requireUnsubscribed(apiFor(args), args.params.artistUsername);
  return { artist };
}

export default function UnsubscribedLayout() {
  return <Outlet />;
}
