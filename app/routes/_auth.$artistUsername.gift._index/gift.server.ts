import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import type { Payment } from '#contract/payments';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireArtist, requireUser } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { fetchGateway, fetchPayment, testCardOrReply } from '~/utils/payments.server';
import { GiftCardFormSchema, GiftCheckoutFormSchema } from './gift-schemas';

/** /{artist}/gift: a year of the artist's fan club bought for someone's email address (signed in: the buyer pays). */
export async function loadGift(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const paymentId = new URL(args.request.url).searchParams.get('payment');
  const [user, artist, gateway, payment] = await Promise.all([
    requireUser(api),
    requireArtist(api, args.params.artistUsername),
    fetchGateway(api),
    paymentId ? fetchPayment(api, paymentId) : null,
  ]);
  return json(
    {
      artist,
      gateway: gateway.paymentGateway,
      own: user.id === artist.id,
      // Artists cannot buy gifts (the api refuses with the same sentence): the page says so instead of a form.
      artistBuyer: user.artist,
      returnedFailure: payment?.kind === 'gift' && payment.status === 'failed' ? (payment.failure?.message ?? null) : null,
      // One key per attempt: a double submit buys one gift.
      idempotencyKey: crypto.randomUUID(),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

const GiftIntentSchema = z.discriminatedUnion('intent', [GiftCardFormSchema, GiftCheckoutFormSchema]);

const NOT_PAID = 'Your payment did not go through. You have not been charged; please try again.';

/** Buys the gift (POST /gifts) and leads on: the page that says it is on its way, the bank's page, or the reason. */
export async function giftAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const artist = await requireArtist(api, args.params.artistUsername);
  const submission = parseGuardedForm(await readFormData(args.request), GiftIntentSchema);
  if (submission.status !== 'success') {
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const value = submission.value;
  let cardId: string | undefined;
  if (value.intent === 'test-card') {
    const card = await testCardOrReply(api, submission, value);
    if ('reply' in card) return card.reply;
    cardId = card.cardId;
  }
  let payment: Payment;
  try {
    const answer = await api.post<{ data: Payment }>(
      '/gifts',
      {
        performerId: artist.id,
        recipientEmail: value.recipientEmail,
        message: value.message ?? '',
        paymentGateway: value.intent === 'test-card' ? 'test' : 'stripe',
        cardId,
      },
      { headers: { 'Idempotency-Key': value.idempotencyKey }, handle: [400, 403, 409], deadlineMs: 30_000 },
    );
    payment = answer.data;
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error);
  }
  if (payment.status === 'succeeded' && payment._id) {
    return redirect(`/${artist.username}/gift/sent?${new URLSearchParams({ payment: payment._id })}`);
  }
  if (payment.status === 'requires_action' && payment.nextAction?.type === 'redirect') return redirect(payment.nextAction.url);
  return formReply(submission, { formErrors: [payment.failure?.message ?? NOT_PAID] }, 402);
}
