import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import { RefundSchema, type ArtistPaymentList, type Earnings, type MoneySettings } from '#contract/earnings';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';

const PAGE_SIZE = 25;

/**
 * /{artist}/account/earnings: the ledger of the last 12 months, a page of payments, and the payout account. Coming
 * back from payout onboarding (?payouts=return), the account's state is asked of the gateway first.
 */
export async function loadEarnings(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const search = new URL(args.request.url).searchParams;
  const page = Math.min(Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1), 40_000);
  if (search.get('payouts') === 'return') await api.post<{ data: MoneySettings }>('/performers/me/payouts/refresh');
  const [earnings, payments] = await Promise.all([
    api.get<{ data: Earnings }>('/performers/me/earnings'),
    api.get<{ data: ArtistPaymentList }>('/performers/me/payments', { params: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } }),
  ]);
  return json(
    {
      artist: { username: artist.username, name: artist.name },
      earnings: earnings.data,
      payments: payments.data,
      page,
      pageSize: PAGE_SIZE,
      refunded: search.get('refunded'),
      payoutsReturn: search.get('payouts'),
      // One key per page view: the same refund form sent twice is one refund.
      requestKey: crypto.randomUUID(),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

const RefundFormSchema = z.extend(RefundSchema, {
  intent: z.literal('refund'),
  paymentId: z.string().check(z.minLength(1), z.maxLength(100)),
  requestKey: z.string().check(z.regex(/^[\w-]{8,100}$/)),
});

const EarningsIntentSchema = z.discriminatedUnion('intent', [RefundFormSchema, z.object({ intent: z.literal('payouts') })]);

export type EarningsReply = ReturnType<typeof formReply>;

/** A refund (the reply names its payment, so the right form shows it) or the way into payout onboarding. */
export async function earningsAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const submission = parseGuardedForm(await readFormData(args.request), EarningsIntentSchema);
  if (submission.status !== 'success') {
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const value = submission.value;
  try {
    if (value.intent === 'payouts') {
      const onboarding = await api.post<{ data: { url: string } }>('/performers/me/payouts/onboarding');
      return redirect(onboarding.data.url);
    }
    const answer = await api.post<{ data: { refundedNow: number } }>(
      `/payments/${encodeURIComponent(value.paymentId)}/refund`,
      { amount: value.amount, reason: value.reason, keepAccess: value.keepAccess },
      { headers: { 'Idempotency-Key': value.requestKey }, handle: [404] },
    );
    const search = new URLSearchParams({ refunded: String(answer.data.refundedNow) });
    return redirect(`/${artist.username}/account/earnings?${search}#payments-title`);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error);
  }
}
