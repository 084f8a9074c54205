import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import { TestCardFormSchema } from '#contract/payment-schemas';
import type { Payment, SubscribeRequest } from '#contract/payments';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireUnsubscribed } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { formReply } from '~/utils/form-reply.server';
import type { Artist } from '~/utils/mappers';
import { subscribeToArtist, testCardOrReply } from '~/utils/payments.server';

const { idempotencyKey, promo } = TestCardFormSchema.shape;

/**
 * The payment page's forms, told apart by `intent`: join a free club, open Stripe Checkout (the Stripe fallback
 * without JavaScript), pay with a card Stripe.js has made, or pay with the test gateway's card form. Each carries the
 * idempotency key the loader made for this attempt.
 */
const PaymentIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('free'), idempotencyKey }),
  z.object({ intent: z.literal('checkout'), idempotencyKey, promo }),
  z.object({ intent: z.literal('stripe-card'), idempotencyKey, promo, cardId: z.optional(z.string().check(z.maxLength(255))) }),
  z.extend(TestCardFormSchema, { intent: z.literal('test-card') }),
]);

const NOT_PAID = 'Your payment did not go through. You have not been charged; please try again.';

/**
 * Pays (POST /payment/subscribe/performers) and leads the fan on: to the success page, to the page where they
 * authenticate, or back to this page to authenticate with Stripe.js. A refusal is the form's reply: the api's reason
 * (a promo, a card) with 400, a payment that did not go through with 402; the card details stay in the form.
 */
export async function paymentAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  // An action runs without its layout's loader: the same guard here.
  const { artist } = await requireUnsubscribed(api, args.params.artistUsername);
  const submission = parseGuardedForm(await readFormData(args.request), PaymentIntentSchema);
  if (submission.status !== 'success') {
    // A form that names no intent we know is not one of this page's forms.
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const value = submission.value;

  const pay = async (request: SubscribeRequest) => {
    let payment: Payment;
    try {
      payment = await subscribeToArtist(api, request, value.idempotencyKey);
    } catch (error) {
      // Already a member (a second tab paid a moment ago): on to the artist.
      if (isHttpError(error, 409) && error.message.startsWith('You are already subscribed')) return redirect(`/${artist.username}`);
      if (!isHttpError(error, 400, 409)) throw error;
      return formReply(submission, { formErrors: [error.fieldErrors.promo?.[0] ?? error.fieldErrors.cardId?.[0] ?? error.message] });
    }
    return follow(payment, artist) ?? formReply(submission, { formErrors: [payment.failure?.message ?? NOT_PAID] }, 402);
  };

  const yearly = { type: 'yearly', performerId: artist.id } as const;
  switch (value.intent) {
    case 'free':
      return pay({ type: 'free', performerId: artist.id });
    case 'checkout':
      return pay({ ...yearly, paymentGateway: 'stripe', promo: value.promo || undefined });
    case 'stripe-card':
      return pay({ ...yearly, paymentGateway: 'stripe', cardId: value.cardId || undefined, promo: value.promo || undefined });
    case 'test-card': {
      const card = await testCardOrReply(api, submission, value);
      if ('reply' in card) return card.reply;
      return pay({ ...yearly, paymentGateway: 'test', cardId: card.cardId, promo: value.promo || undefined });
    }
  }
}

/**
 * Where a payment sends the fan, or null when it did not go through. One that Stripe.js must finish comes back to this
 * page with its id, whose loader hands the page the client secret.
 */
function follow(payment: Payment, artist: Artist) {
  if (payment.status === 'succeeded') return redirect(`/${artist.username}/subscribe/success`);
  if (payment.status !== 'requires_action') return null;
  if (payment.nextAction?.type === 'redirect') return redirect(payment.nextAction.url);
  if (payment.nextAction?.type === 'stripe_sdk' && payment._id) {
    return redirect(`/${artist.username}/subscribe/payment?${new URLSearchParams({ payment: payment._id })}`);
  }
  return null;
}

/** A payment that Stripe.js finishes in the page (3-D Secure): what it needs, else null. */
export function stripeAuthentication(payment: Payment | null) {
  if (payment?.status !== 'requires_action' || payment.nextAction?.type !== 'stripe_sdk' || !payment._id) return null;
  return { paymentId: payment._id, clientSecret: payment.nextAction.clientSecret };
}
