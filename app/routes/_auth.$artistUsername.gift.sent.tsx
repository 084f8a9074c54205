import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import type { GiftView } from '#contract/gifts';
import { FormPage, accentLinkClass } from '~/components/form-page';
import { apiFor } from '~/utils/api.server';
import { requireUser } from '~/utils/auth.server';
import { possessive } from '#contract/names';

export const meta: MetaFunction = () => [{ title: 'Your gift is on its way | Stagedoor' }];

/** /{artist}/gift/sent?payment=: after buying a gift, where it went (the buyer's own gift only). */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  const paymentId = new URL(args.request.url).searchParams.get('payment') ?? '';
  const gift = await api.get<{ data: GiftView }>(`/gifts/bought/${encodeURIComponent(paymentId)}`);
  return { gift: gift.data };
}

export default function GiftSent() {
  const { gift } = useLoaderData<typeof loader>();
  return (
    <FormPage title="Your gift is on its way" intro={<p>Thank you. We have mailed you a receipt.</p>}>
      <p className="text-base text-white/90">
        {gift.recipientEmail} gets a mail now with a link to a year of {possessive(gift.artist.name)} fan club. It works whether or not they
        already have an account, and it never renews by itself.
      </p>
      <p className="mt-6 text-base">
        <Link to={`/${gift.artist.username}/gift`} className={accentLinkClass}>
          Give another
        </Link>
      </p>
    </FormPage>
  );
}
