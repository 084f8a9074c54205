import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as z from 'zod/mini';
import { formatPrice } from '#contract/money';
import type { Membership, Receipt } from '#contract/payments';
import { EmptyNote } from '~/components/content-card';
import { accentLinkClass } from '~/components/form-page';
import { FormAlert } from '~/components/form-parts';
import { membershipSummary } from '~/components/membership-summary';
import { apiFor, isHttpError } from '~/utils/api.server';
import { invariantResponse, requireUser } from '~/utils/auth.server';
import { formatDate } from '~/utils/dates';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply } from '~/utils/form-reply.server';
import { DEFAULT_AVATAR } from '~/utils/mappers';

export const meta: MetaFunction = () => [{ title: 'Your memberships | Stagedoor' }];

/**
 * /account/memberships (docs/payments.md "The fan's memberships"), from the account menu of every
 * page: every club the fan belongs to or did, with when it renews or ends, its price in the club's currency, the
 * receipts of what was paid, and the renewal switch (cancel or resume), a plain form that works without JavaScript.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const [, answer] = await Promise.all([requireUser(api), api.get<{ data: { data: Membership[] } }>('/subscriptions/me')]);
  const saved = new URL(args.request.url).searchParams.get('saved');
  return { memberships: answer.data.data, saved };
}

const RenewalSchema = z.object({
  intent: z.literal('auto-renew'),
  subscriptionId: z.string().check(z.minLength(1), z.maxLength(100)),
  autoRenew: z.enum(['true', 'false']),
});

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  const submission = parseGuardedForm(await readFormData(args.request), RenewalSchema);
  invariantResponse(submission.status === 'success', 'Bad request', { status: 400 });
  const { subscriptionId, autoRenew } = submission.value;
  try {
    await api.put(
      `/subscriptions/${encodeURIComponent(subscriptionId)}/auto-renew`,
      { autoRenew: autoRenew === 'true' },
      { handle: [404] },
    );
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error);
  }
  return redirect(`/account/memberships?saved=${encodeURIComponent(subscriptionId)}#membership-${encodeURIComponent(subscriptionId)}`);
}

export default function Memberships() {
  const { memberships, saved } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-8 sm:px-6 sm:pt-12">
      <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Your memberships</h1>
      <p className="mt-3 text-lg text-white/85">Every fan club you belong to: when it renews, what it costs, and what you paid.</p>
      <div className="mt-4">
        <FormAlert errors={reply?.error?.[''] ?? undefined} />
      </div>
      {memberships.length ? (
        <ul className="mt-8 space-y-6">
          {memberships.map((membership) => (
            <li key={membership.subscription._id}>
              <MembershipCard membership={membership} saved={saved === membership.subscription._id} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="mt-8">
          <EmptyNote>
            <p className="text-xl font-semibold text-white">You are not a member of any fan club yet</p>
            <p className="mt-2 text-base text-white/80">When you join one, it shows up here with its renewal date and receipts.</p>
            <Link to="/discover" className={`mt-4 inline-block ${accentLinkClass}`}>
              Discover artists
            </Link>
          </EmptyNote>
        </div>
      )}
    </div>
  );
}

function MembershipCard({ membership, saved }: { membership: Membership; saved: boolean }) {
  const { subscription, artist, receipts } = membership;
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('subscriptionId') === subscription._id;
  const titleId = `membership-${subscription._id}`;
  const price = artist.yearlyPrice > 0 ? `${formatPrice(artist.yearlyPrice, artist.currency)} a year` : 'Free';
  const trial = subscription.trialEndsAt;
  const renews = subscription.active && subscription.autoRenew && subscription.type !== 'gift';
  return (
    <section aria-labelledby={titleId} className="rounded-2xl bg-navy-light p-5 ring-1 ring-white/10 sm:p-6">
      <div className="flex items-center gap-4">
        <img src={artist.avatar || DEFAULT_AVATAR} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-full object-cover" />
        <div className="min-w-0">
          <h2 id={titleId} className="break-words text-xl font-bold text-white sm:text-2xl">
            <Link to={subscription.active ? `/${artist.username}` : `/${artist.username}/join`} className="hover:underline">
              {artist.name}
            </Link>
          </h2>
          <p className="text-base text-white/80">{subscription.active ? 'Member' : 'Membership ended'}</p>
        </div>
      </div>
      {saved ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          {subscription.autoRenew ? 'Your membership renews again.' : 'Your membership will not renew.'}
        </p>
      ) : null}
      <dl className="mt-5 grid grid-cols-2 gap-4">
        <div>
          <dt className="text-sm text-white/70">
            {trial ? 'Free trial until' : renews ? 'Renews on' : subscription.active ? 'Ends on' : 'Ended on'}
          </dt>
          <dd className="mt-1 text-lg font-semibold text-white">{formatDate(trial ?? subscription.expiresAt)}</dd>
        </div>
        <div>
          <dt className="text-sm text-white/70">Price</dt>
          <dd className="mt-1 text-lg font-semibold text-white">{subscription.type === 'gift' ? 'A gift' : price}</dd>
        </div>
      </dl>
      {subscription.active ? <p className="mt-4 text-base text-white/80">{membershipSummary(subscription, artist)}</p> : null}
      <div className="mt-5 flex flex-wrap items-center gap-4">
        {subscription.active && subscription.type !== 'gift' ? (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="auto-renew" />
            <input type="hidden" name="subscriptionId" value={subscription._id} />
            <input type="hidden" name="autoRenew" value={subscription.autoRenew ? 'false' : 'true'} />
            <button
              type="submit"
              disabled={pending}
              className={
                subscription.autoRenew
                  ? 'rounded-full border border-white/30 px-4 py-2 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-70'
                  : 'rounded-full bg-accent px-4 py-2 text-base font-semibold text-navy hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-70'
              }
            >
              {renewalLabel(subscription.autoRenew, Boolean(trial))}
              <span className="sr-only"> of {artist.name}</span>
            </button>
          </Form>
        ) : null}
        {subscription.active ? null : (
          <Link to={`/${artist.username}/join`} className={accentLinkClass}>
            Join {artist.name} again
          </Link>
        )}
      </div>
      <Receipts receipts={receipts} label={`Receipts for ${artist.name}`} />
    </section>
  );
}

function renewalLabel(autoRenew: boolean, trial: boolean) {
  if (trial) return autoRenew ? 'Cancel free trial' : 'Stay a member after the trial';
  return autoRenew ? 'Cancel renewal' : 'Resume renewal';
}

const KINDS: Record<Receipt['kind'], string> = {
  subscribe: 'First year',
  renewal: 'Renewal',
  trial: 'Free trial started',
  gift: 'Gift',
};

function Receipts({ receipts, label }: { receipts: Receipt[]; label: string }) {
  if (!receipts.length) return null;
  return (
    <div className="mt-6 border-t border-white/10 pt-4">
      <h3 className="text-base font-semibold text-white">Receipts</h3>
      <ul aria-label={label} className="mt-2 divide-y divide-white/10">
        {receipts.map((receipt) => (
          <li
            key={receipt._id}
            id={`receipt-${receipt._id}`}
            className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-base"
          >
            <span className="text-white/85">
              {formatDate(receipt.createdAt)} · {KINDS[receipt.kind]}
              {receipt.promo ? ` · code ${receipt.promo}` : ''}
            </span>
            <span className="font-semibold text-white">
              {formatPrice(receipt.amount, receipt.currency)}
              {receipt.refunded > 0 ? (
                <span className="ml-2 font-normal text-white/75">({formatPrice(receipt.refunded, receipt.currency)} refunded)</span>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
