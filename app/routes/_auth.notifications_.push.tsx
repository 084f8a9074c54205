import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireUser } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';

/**
 * /notifications/push: no page, the data of the push opt-in button (app/components/push-opt-in.tsx). GET is the
 * api's VAPID public key, read when the fan turns push on; POST registers this browser's subscription with the api
 * (intent=subscribe) or forgets it (intent=unsubscribe).
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const [, key] = await Promise.all([requireUser(api), api.get<{ data: { publicKey: string } }>('/notifications/push/key')]);
  return json({ publicKey: key.data.publicKey }, { headers: { 'Cache-Control': 'private, no-store' } });
}

const text = z.string().check(z.minLength(1), z.maxLength(2000));

const PushIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('subscribe'), endpoint: text, p256dh: text, auth: text }),
  z.object({ intent: z.literal('unsubscribe'), endpoint: text }),
]);

export type PushActionData = { ok: true } | { ok: false; error: string };

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  const submission = parseGuardedForm(await readFormData(args.request), PushIntentSchema);
  if (submission.status !== 'success')
    return json<PushActionData>({ ok: false, error: 'This browser sent no subscription.' }, { status: 400 });
  const value = submission.value;
  try {
    if (value.intent === 'subscribe') {
      const { endpoint, p256dh, auth } = value;
      await api.post('/notifications/push/subscriptions', { endpoint, keys: { p256dh, auth } }, { handle: [400, 409, 422] });
    } else {
      await api.delete(`/notifications/push/subscriptions?endpoint=${encodeURIComponent(value.endpoint)}`, { handle: [404] });
    }
    return json<PushActionData>({ ok: true });
  } catch (error) {
    // Forgetting a subscription the api no longer has is what was asked.
    if (isHttpError(error, 404)) return json<PushActionData>({ ok: true });
    // A subscription the api will not take (not a public push service, or another account's): said as the api says it.
    for (const status of [400, 409, 422])
      if (isHttpError(error, status)) return json<PushActionData>({ ok: false, error: error.message }, { status });
    throw error;
  }
}
