import type { LoaderFunctionArgs } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import { apiFor } from '~/utils/api.server';
import { requireUser } from '~/utils/auth.server';
import { connect } from '~/utils/realtime';

/**
 * The authenticated area: no session, or an authentication error from /users/me, sends the viewer to
 * /logout with next and the artist. The token goes to the page for the realtime connection only (the cookie
 * itself is HttpOnly).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  // The root has the user for the page; this layout adds only the token.
  return { token: api.token ?? '' };
}

export { refreshWhenBackOnline as clientLoader, skipAfterMessageActions as shouldRevalidate } from '~/utils/realtime';

export default function AuthenticatedLayout() {
  const { token } = useLoaderData<typeof loader>();
  // Opened once the page is interactive (effects run after hydration); dropped by the unauthenticated layout.
  useEffect(() => {
    void connect(token);
  }, [token]);
  return <Outlet />;
}
