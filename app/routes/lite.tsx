import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { safeRedirect } from '~/utils/auth.server';
import { liteModeCookie } from '~/utils/lite-mode.server';
import { readFormData } from '~/utils/form-guard.server';

/** The footer's lite-mode switch posts here; the fan goes back to the page they were on, in the mode they chose. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const on = form.get('lite') === 'on';
  return redirect(safeRedirect(form.get('redirectTo'), '/'), { headers: { 'Set-Cookie': liteModeCookie(on) } });
}

export function loader() {
  return redirect('/');
}
