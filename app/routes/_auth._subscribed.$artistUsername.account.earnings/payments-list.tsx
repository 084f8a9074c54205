import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { RefundSchema, type ArtistPayment, type ArtistPaymentList, type ArtistPaymentState } from '#contract/earnings';
import { formatPrice } from '#contract/money';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { CheckboxField, InputField, TextareaField } from '~/components/forms';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { possessive } from '#contract/names';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

const KIND_LABELS: Record<ArtistPayment['kind'], string> = {
  subscribe: 'First year',
  renewal: 'Renewal',
  trial: 'Free trial started',
  gift: 'Gift',
};

export const STATE_LABELS: Record<ArtistPaymentState, string> = {
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
  disputed: 'Disputed',
  dispute_won: 'Dispute won',
  dispute_lost: 'Dispute lost',
  failed: 'Failed',
};

/**
 * The artist's payments, newest first: the fan, what it paid for, the amount (and what was refunded), the promo
 * code, the fee, where the money went, and a refund form for each that can still be refunded. The form sits in a
 * <details>, which opens without JavaScript.
 */
export function PaymentsList({
  artistUsername,
  payments,
  page,
  pageSize,
  requestKey,
  lastResult,
}: {
  artistUsername: string;
  payments: ArtistPaymentList;
  page: number;
  pageSize: number;
  requestKey: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pages = Math.max(1, Math.ceil(payments.total / pageSize));
  const here = `/${artistUsername}/account/earnings`;
  return (
    <section aria-labelledby="payments-title" className="mt-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="payments-title" className="text-2xl font-bold text-white">
          Payments <span className="text-base font-medium text-white/70">({payments.total})</span>
        </h2>
        <Link
          to={`${here}.csv`}
          reloadDocument
          className="rounded-full border border-white/30 px-4 py-2 text-sm font-semibold text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          Download all as CSV
        </Link>
      </div>
      {payments.data.length === 0 ? (
        <p className="mt-3 text-base text-white/75">No payments yet. They show here as fans join.</p>
      ) : (
        <ul className="mt-4 divide-y divide-white/10 rounded-2xl bg-navy-light ring-1 ring-white/10">
          {payments.data.map((payment) => (
            <li key={payment._id} className="p-4 sm:p-5">
              <PaymentRow payment={payment} />
              {payment.refundable > 0 ? (
                <RefundForm
                  // A new form (closed) once a refund has changed the payment.
                  key={payment.refunded}
                  payment={payment}
                  requestKey={requestKey}
                  lastResult={lastResult?.initialValue?.paymentId === payment._id ? lastResult : undefined}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages of payments" className="mt-4 flex items-center justify-between text-base">
          {page > 1 ? (
            <Link to={`${here}?page=${page - 1}#payments-title`} className="font-semibold text-accent hover:underline">
              Newer
            </Link>
          ) : (
            <span />
          )}
          <span className="text-white/70">
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link to={`${here}?page=${page + 1}#payments-title`} className="font-semibold text-accent hover:underline">
              Older
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}

function PaymentRow({ payment }: { payment: ArtistPayment }) {
  const money = (amount: number) => formatPrice(amount, payment.currency);
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2">
      <div className="min-w-0">
        <p className="truncate text-base font-semibold text-white">{payment.fan.name}</p>
        <p className="break-words text-sm text-white/70">
          {payment.fan.email} · {KIND_LABELS[payment.kind]} · {dateFormat.format(new Date(payment.createdAt))}
          {payment.promo ? ` · promo ${payment.promo}` : ''}
        </p>
      </div>
      <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
        <div>
          <dt className="sr-only">Amount</dt>
          <dd className="text-base font-semibold tabular-nums text-white">{money(payment.amount)}</dd>
        </div>
        <div>
          <dt className="sr-only">State</dt>
          <dd className="text-white/85">
            {STATE_LABELS[payment.state]}
            {payment.state === 'partially_refunded' ? ` (${money(payment.refunded)} back)` : ''}
          </dd>
        </div>
        <div>
          <dt className="inline text-white/70">Fee </dt>
          <dd className="inline tabular-nums text-white/85">{money(payment.fee)}</dd>
        </div>
        <div>
          <dt className="sr-only">Payout</dt>
          <dd className="text-white/70">{payment.payout === 'paid_out' ? 'To your payout account' : 'Held until payouts are set up'}</dd>
        </div>
      </dl>
    </div>
  );
}

function RefundForm({
  payment,
  requestKey,
  lastResult,
}: {
  payment: ArtistPayment;
  requestKey: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('paymentId') === payment._id;
  const [form, fields] = useForm({
    id: `refund-${payment._id}`,
    lastResult,
    constraint: formConstraint(RefundSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, RefundSchema),
  });
  const left = formatPrice(payment.refundable, payment.currency);
  return (
    <details className="mt-3" open={Boolean(lastResult)}>
      <summary className="w-fit cursor-pointer rounded text-sm font-semibold text-accent hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent">
        Refund<span className="sr-only"> {possessive(payment.fan.name)} payment</span>
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 max-w-md space-y-4">
        <FormAlert id={form.errorId} errors={form.errors} />
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="paymentId" value={payment._id} />
        <input type="hidden" name="requestKey" value={requestKey} />
        <InputField
          field={fields.amount}
          label={`Amount (${payment.currency.toUpperCase()})`}
          inputProps={{ inputMode: 'decimal', placeholder: payment.refundable.toFixed(2) }}
          hint={`Leave it empty to refund all that is left: ${left}.`}
        />
        <TextareaField field={fields.reason} label="Reason (the fan sees it)" textareaProps={{ rows: 2 }} />
        <CheckboxField field={fields.keepAccess} label="Keep the fan’s access after a full refund" />
        <SubmitButton pending={pending} className="sm:w-auto">
          Refund
        </SubmitButton>
      </Form>
    </details>
  );
}
