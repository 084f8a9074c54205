import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { apiFor } from '~/utils/api.server';
import { requireUser, safeRedirect } from '~/utils/auth.server';
import { confirmPayment } from '~/utils/payments.server';

export const meta: MetaFunction = () => [{ title: 'Finishing your payment | Stagedoor' }];

/**
 * Where the fan comes back after authenticating a payment (the test gateway's approval page, Stripe's 3-D Secure)
 * or after Stripe Checkout. Such returns start on another site, so the SameSite=Strict cookie is missing on the
 * first request: server/same-site-bounce.ts answers it with a same-site reload that carries the cookie, and this
 * loader then runs signed in. It asks the api to confirm (POST /payment/{id}/confirm) and leads the fan on:
 * success page, back to the authentication page, or back to the payment form with the reason.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, params } = args;
  const api = apiFor(args);
  await requireUser(api);
  const artist = params.artistUsername ?? '';
  const paymentId = new URL(request.url).searchParams.get('payment');
  // The artist's place in the URL is the visitor's: `%2F%2Fevil.example` there would make these paths another host.
  const paymentPage = safeRedirect(`/${artist}/subscribe/payment`);
  if (!paymentId) throw redirect(paymentPage);
  const payment = await confirmPayment(api, paymentId);
  // A gift comes back here too: on to the page that says it is on its way, or back to the gift form.
  const gift = payment.kind === 'gift';
  if (payment.status === 'succeeded') {
    throw redirect(
      safeRedirect(gift ? `/${artist}/gift/sent?${new URLSearchParams({ payment: paymentId })}` : `/${artist}/subscribe/success`),
    );
  }
  if (payment.status === 'requires_action' && payment.nextAction?.type === 'redirect') throw redirect(payment.nextAction.url);
  throw redirect(`${gift ? safeRedirect(`/${artist}/gift`) : paymentPage}?${new URLSearchParams({ payment: paymentId })}`);
}

/** Never shown: the loader always redirects. */
export default function ConfirmPayment() {
  return null;
}
