import { redirect } from '@remix-run/node';
import type { SetupStatus, SetupStep } from '#contract/setup';
import type { ApiClient } from './api.server';
import { getOptionalUser } from './auth.server';

/** Where this install's first-run setup stands for the viewer (docs/operations.md "First run"). */
export async function setupStep(api: ApiClient): Promise<SetupStep> {
  return (await api.get<{ data: SetupStatus }>('/setup')).data.step;
}

/** Throws the not-found page unless the setup stands at `step` for the viewer: a set-up site has no setup pages. */
export async function requireSetupStep(api: ApiClient, step: SetupStep) {
  if ((await setupStep(api)) !== step) throw new Response('Not found', { status: 404 });
}

/** The setup's steps after the club (its art, payouts later) are a signed-in artist's; anyone else gets the 404 page. */
export async function requireSetUpArtist(api: ApiClient) {
  const user = await getOptionalUser(api);
  if (!user?.artist) throw new Response('Not found', { status: 404 });
  return user;
}

/**
 * An install is set up for good once it has an account, so this process stops asking after the first "done": the
 * front door of a running site costs no extra call.
 */
let installed = false;

/** The front door of an install with no account yet leads to the setup; the owner half-way through, to its next step. */
export async function redirectToSetup(api: ApiClient) {
  if (installed) return;
  const step = await setupStep(api);
  if (step === 'account') throw redirect('/setup');
  if (step === 'club') throw redirect('/setup/club');
  installed = true;
}
