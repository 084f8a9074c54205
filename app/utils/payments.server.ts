import type { Payment, PromoCheck, SubscribeRequest } from '#contract/payments';
import { apiRequest, isHttpError, type HttpError } from './api.server';

/** The web side of the payment calls (docs/payments.md): what the payment, confirm and account pages ask the api. */

export async function fetchGateway(signal?: AbortSignal) {
  const body = await apiRequest<{ data: { paymentGateway: 'test' | 'stripe'; publishableKey: string | null } }>({ path: '/payment/gateway', signal });
  return body.data;
}

/** The promo code's effect, or the reason it cannot be used (a message for the promo field). */
export async function checkPromo(
  performerId: string,
  code: string,
  { token, clientIp, signal }: { token: string; clientIp?: string; signal?: AbortSignal },
): Promise<{ promo: PromoCheck } | { error: string }> {
  try {
    // The fan and their address: the api limits the codes each may try.
    const body = await apiRequest<{ data: PromoCheck }>({ path: '/payment/promo-codes/check', params: { performerId, code }, token, clientIp, signal });
    return { promo: body.data };
  } catch (error) {
    if (isHttpError(error, 400)) return { error: error.fieldErrors.promo?.[0] ?? error.message };
    throw error;
  }
}

/** POST /payment/subscribe/performers (spec §7) with the form's idempotency key: a replayed post pays once. */
export async function subscribeToArtist(token: string, body: SubscribeRequest, idempotencyKey: string | undefined, signal?: AbortSignal) {
  const answer = await apiRequest<{ data: Payment }>({
    method: 'POST',
    path: '/payment/subscribe/performers',
    body,
    token,
    signal,
    deadlineMs: 30_000,
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
  });
  return answer.data;
}

export async function confirmPayment(token: string, paymentId: string, signal?: AbortSignal) {
  const answer = await apiRequest<{ data: Payment }>({ method: 'POST', path: `/payment/${encodeURIComponent(paymentId)}/confirm`, token, signal, deadlineMs: 30_000 });
  return answer.data;
}

export async function fetchPayment(token: string, paymentId: string, signal?: AbortSignal) {
  try {
    const answer = await apiRequest<{ data: Payment }>({ path: `/payment/${encodeURIComponent(paymentId)}`, token, signal });
    return answer.data;
  } catch (error) {
    if (isHttpError(error, 404)) return null;
    throw error;
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
