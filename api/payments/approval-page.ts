import { formatPrice } from '#contract/money';

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The test gateway's authentication page: what a bank's 3-D Secure page is to Stripe. Plain HTML with two forms,
 * so it works without JavaScript; it says plainly that it is a test and nothing is charged. It is served by the api,
 * as a bank's page is by the bank, but dressed in the app's colours so the fan does not feel sent somewhere strange.
 */
/** What the page shows of a payment waiting for the fan's approval (read by the route with its return address). */
export interface ActionPayment {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  actionSecret: string | null;
  actionResult: string | null;
  artistName: string;
}

export function approvalPage(payment: ActionPayment) {
  const amount = formatPrice(payment.amountCents / 100, payment.currency);
  const open = payment.status === 'requires_action' && !payment.actionResult;
  const action = `/payment/test-gateway/authenticate/${encodeURIComponent(payment.id)}`;
  const hidden = `<input type="hidden" name="secret" value="${escapeHtml(payment.actionSecret ?? '')}">`;
  const body = open
    ? `<p>Approve the payment of <strong>${escapeHtml(amount)}</strong> to <strong>${escapeHtml(payment.artistName)}</strong>’s fan club?</p>
       <form method="post" action="${action}">${hidden}<input type="hidden" name="decision" value="approve">
         <button type="submit" class="primary">Approve payment</button></form>
       <form method="post" action="${action}">${hidden}<input type="hidden" name="decision" value="fail">
         <button type="submit" class="secondary">Fail authentication</button></form>`
    : `<p>This payment has already been answered. You can close this page.</p>`;
  return testGatewayPage({
    title: 'Authenticate your payment (test)',
    heading: 'Authenticate your payment',
    note: 'This page stands in for your bank’s security check (3-D Secure). Nothing is charged.',
    body,
  });
}

/** A page of the test gateway (the stand-in for a bank's or Stripe's own page), in the app's colours, marked as a test. */
export function testGatewayPage(page: { title: string; heading: string; lead?: string; note: string; body: string }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} | Stagedoor</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#050d1f;color:#fff;font-family:system-ui,-apple-system,sans-serif;line-height:1.5}
main{max-width:26rem;margin:1rem;padding:2rem;background:#13203a;border-radius:1rem;box-shadow:0 0 0 1px rgba(255,255,255,.12),0 20px 40px rgba(0,0,0,.4)}
.brand{margin:0 0 1.25rem;font-weight:700;letter-spacing:.02em;color:#facc15}
h1{font-size:1.5rem;margin:0 0 .75rem}.note{background:rgba(250,204,21,.1);border:1px solid rgba(250,204,21,.6);border-radius:.75rem;padding:.75rem;font-size:.95rem}
strong{color:#fff}form{margin-top:1rem}button{width:100%;padding:.85rem 1rem;border-radius:999px;font-size:1rem;font-weight:600;cursor:pointer}
.primary{background:#facc15;color:#050d1f;border:0}.primary:hover{background:#eab308}
.secondary{background:transparent;color:#fff;border:1px solid rgba(255,255,255,.5)}.secondary:hover{background:rgba(255,255,255,.1)}
button:focus-visible{outline:3px solid #fff;outline-offset:2px}
</style></head><body><main>
<p class="brand">Stagedoor · test bank</p>
<h1>${escapeHtml(page.heading)}</h1>
<p class="note"><strong>${escapeHtml(page.lead ?? 'Test payment.')}</strong> ${escapeHtml(page.note)}</p>
${page.body}
</main></body></html>`;
}
