import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import { ArtistPromoSchema, type ArtistPromoList } from '#contract/promo-schemas';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { env } from '~/utils/env.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';

/** /{artist}/account/promos: the artist's codes with who used them, and the form for a new one. */
export async function loadPromos(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const promos = await api.get<{ data: ArtistPromoList }>('/performers/me/promos');
  const done = new URL(args.request.url).searchParams;
  return json(
    {
      artist: { username: artist.username, name: artist.name, yearlyPrice: artist.yearlyPrice },
      promos: promos.data,
      saved: done.get('saved'),
      code: done.get('code'),
      // The share link as fans will open it: the app's public address, not the one this request came in on.
      webOrigin: env().publicWebUrl,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

const promoId = z.string().check(z.minLength(1), z.maxLength(100));
const PromoIntentSchema = z.discriminatedUnion('intent', [
  z.extend(ArtistPromoSchema, { intent: z.literal('create') }),
  z.object({ intent: z.literal('pause'), promoId, code: z.string() }),
  z.object({ intent: z.literal('resume'), promoId, code: z.string() }),
  z.object({ intent: z.literal('expire'), promoId, code: z.string() }),
]);

/** Makes a code, or pauses, resumes or expires one; then back to the list saying what changed (post/redirect/get). */
export async function promosAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const submission = parseGuardedForm(await readFormData(args.request), PromoIntentSchema);
  if (submission.status !== 'success') {
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const value = submission.value;
  const back = (saved: string, code: string) =>
    redirect(`/${artist.username}/account/promos?${new URLSearchParams({ saved, code })}#codes-title`);
  try {
    if (value.intent === 'create') {
      const { intent: _intent, ...promo } = value;
      await api.post('/performers/me/promos', promo);
      return back('created', value.code);
    }
    await api.post(`/performers/me/promos/${encodeURIComponent(value.promoId)}`, { action: value.intent }, { handle: [404] });
    return back(value.intent, value.code);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error);
  }
}
