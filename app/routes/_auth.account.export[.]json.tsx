import type { LoaderFunctionArgs } from '@remix-run/node';
import type { AccountExport } from '#contract/account-settings';
import { apiFor } from '~/utils/api.server';
import { requireUser } from '~/utils/auth.server';

/** /account/export.json: everything the account holds about its user, as a file to keep (GET /users/me/export). */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const [user, answer] = await Promise.all([requireUser(api), api.get<{ data: AccountExport }>('/users/me/export')]);
  return new Response(`${JSON.stringify(answer.data, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="stagedoor-${user.username}.json"`,
      'Cache-Control': 'no-store',
    },
  });
}
