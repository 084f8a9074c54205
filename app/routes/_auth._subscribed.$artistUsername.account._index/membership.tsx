import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { formatPrice } from '#contract/money';
import type { SubscriptionDetail } from '#contract/payments';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import type { Artist } from '~/utils/mappers';
import { membershipSummary } from '~/components/membership-summary';
import { formatDate } from '~/utils/dates';

/** The fan's membership: when it started, when it renews or ends, what it cost, and the yearly renewal switch. */
export function Membership({
  artist,
  subscription,
  saved,
  lastResult,
}: {
  artist: Artist;
  subscription: SubscriptionDetail;
  saved: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'auto-renew';
  const [form] = useForm({ id: 'auto-renew', lastResult });
  // The form's fields are hidden: whatever was refused is said above them, for the form as a whole.
  const errors = Object.values(form.allErrors).flat();
  const free = subscription.type === 'free';
  const gift = subscription.type === 'gift';
  const trial = subscription.trialEndsAt;
  return (
    <section aria-labelledby="membership-title" className="mt-10 rounded-2xl bg-navy-light p-6 ring-1 ring-white/10 sm:p-8">
      <h2 id="membership-title" className="text-2xl font-bold text-white">
        Membership details
      </h2>
      {saved ? (
        <p role="status" className="mt-4 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          {subscription.autoRenew ? 'Auto-renewal is on again.' : 'Auto-renewal is off.'}
        </p>
      ) : null}
      <FormAlert id={form.errorId} errors={errors} />
      <dl className="mt-6 grid gap-5 sm:grid-cols-3">
        <Fact label="Member since">{formatDate(subscription.startedAt)}</Fact>
        {trial ? (
          <>
            <Fact label="Free trial until">{formatDate(trial)}</Fact>
            <Fact label="Then">{`${formatPrice(artist.yearlyPrice, artist.currency)} a year`}</Fact>
          </>
        ) : (
          <>
            <Fact label={subscription.autoRenew && !gift ? 'Renews on' : 'Ends on'}>{formatDate(subscription.expiresAt)}</Fact>
            <Fact label="Price paid">
              {free ? 'Free' : gift ? 'A gift' : `${formatPrice(subscription.pricePaid, subscription.currency)} a year`}
            </Fact>
          </>
        )}
      </dl>
      <p className="mt-6 text-base text-white/80">{membershipSummary(subscription, artist)}</p>
      {artist.yearlyPrice > 0 ? (
        <p className="mt-3 text-base">
          <Link
            to={`/${artist.username}/gift`}
            className="font-semibold text-accent underline decoration-accent/50 underline-offset-4 hover:decoration-accent"
          >
            Give a year to a friend
          </Link>
        </p>
      ) : null}
      {gift ? null : (
        <Form method="post" {...getFormProps(form)} className="mt-6 max-w-xs">
          <input type="hidden" name="intent" value="auto-renew" />
          <input type="hidden" name="subscriptionId" value={subscription._id} />
          <input type="hidden" name="autoRenew" value={subscription.autoRenew ? 'false' : 'true'} />
          <SubmitButton pending={pending}>
            {trial
              ? subscription.autoRenew
                ? 'Cancel free trial'
                : 'Stay a member after the trial'
              : subscription.autoRenew
                ? 'Turn off auto-renewal'
                : 'Turn auto-renewal back on'}
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-white/70">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-white">{children}</dd>
    </div>
  );
}
