import type { Payment, PromoCheck, SubscribeRequest } from '#contract/payments';
import type { Submission } from '@conform-to/react';
import { isHttpError, type ApiClient, type HttpError } from './api.server';
import { formReply } from './form-reply.server';

/** The web side of the payment calls (docs/payments.md): what the payment, confirm and account pages ask the api. */

export async function fetchGateway(api: ApiClient) {
  const body = await api.get<{ data: { paymentGateway: 'test' | 'stripe'; publishableKey: string | null } }>('/payment/gateway');
  return body.data;
}

/** The promo code's effect, or the reason it cannot be used (a message for the promo field). */
export async function checkPromo(api: ApiClient, performerId: string, code: string): Promise<{ promo: PromoCheck } | { error: string }> {
  try {
    const body = await api.get<{ data: PromoCheck }>('/payment/promo-codes/check', { params: { performerId, code }, handle: [400] });
    return { promo: body.data };
  } catch (error) {
    if (isHttpError(error, 400)) return { error: error.fieldErrors.promo?.[0] ?? error.message };
    throw error;
  }
}

/**
 * POST /payment/subscribe/performers with the form's idempotency key: a replayed post pays once. A refusal
 * the fan can act on (400, 409: a promo, a card) comes back as an HttpError.
 */
export async function subscribeToArtist(api: ApiClient, body: SubscribeRequest, idempotencyKey: string | undefined) {
  const answer = await api.post<{ data: Payment }>('/payment/subscribe/performers', body, {
    deadlineMs: 30_000,
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
    handle: [400, 409],
  });
  return answer.data;
}

/** The free trial the viewer would get from this artist, in days (0: none). */
export async function fetchTrialDays(api: ApiClient, performerId: string) {
  const answer = await api.get<{ data: { trialDays: number } }>(`/payment/trial/${encodeURIComponent(performerId)}`);
  return answer.data.trialDays;
}

export async function confirmPayment(api: ApiClient, paymentId: string) {
  const answer = await api.post<{ data: Payment }>(`/payment/${encodeURIComponent(paymentId)}/confirm`, undefined, { deadlineMs: 30_000 });
  return answer.data;
}

/** One of the viewer's payments, or null when there is none by that id. */
export async function fetchPayment(api: ApiClient, paymentId: string) {
  try {
    const answer = await api.get<{ data: Payment }>(`/payment/${encodeURIComponent(paymentId)}`, { handle: [400, 404] });
    return answer.data;
  } catch (error) {
    if (isHttpError(error, 400, 404)) return null;
    throw error;
  }
}

/** The test gateway's card token, made from a card form (the api checks it with the same rules). */
export async function createTestCard(api: ApiClient, card: { number: string; expiry: { expMonth: number; expYear: number }; cvc: string }) {
  const answer = await api.post<{ data: { id: string } }>('/payment/test-gateway/cards', {
    number: card.number,
    expMonth: card.expiry.expMonth,
    expYear: card.expiry.expYear,
    cvc: card.cvc,
  });
  return answer.data.id;
}

/**
 * The test card's token for a card form, or the form's reply saying what the api found wrong with the card (on its
 * fields, or above the form).
 */
export async function testCardOrReply<Output>(
  api: ApiClient,
  submission: Submission<unknown, string[], Output>,
  card: Parameters<typeof createTestCard>[1],
) {
  try {
    return { cardId: await createTestCard(api, card) };
  } catch (error) {
    if (!isHttpError(error, 400)) throw error;
    const fieldErrors = cardFieldErrors(error);
    return { reply: formReply(submission, Object.keys(fieldErrors).length ? { fieldErrors } : { formErrors: [error.message] }) };
  }
}

/** The field errors of a refused card, keyed as the form names its fields. */
export function cardFieldErrors(error: HttpError): Record<string, string[]> {
  const errors = error.fieldErrors;
  const mapped: Record<string, string[]> = {};
  if (errors.number) mapped.number = errors.number;
  if (errors.expMonth || errors.expYear) mapped.expiry = errors.expMonth ?? errors.expYear;
  if (errors.cvc) mapped.cvc = errors.cvc;
  return mapped;
}
