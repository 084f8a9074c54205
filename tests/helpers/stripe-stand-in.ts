import http from 'node:http';
import type { AddressInfo } from 'node:net';
import qs from 'qs';

/**
 * A local HTTP stand-in for the part of Stripe's API our Stripe gateway calls, so the real `stripe` SDK (pointed
 * here by STRIPE_API_URL) is exercised end to end without Stripe's servers. It answers with objects of the shapes
 * Stripe documents, records every call (path, form body, Idempotency-Key), replays a repeated idempotency key as
 * Stripe does, and decides outcomes by Stripe's test PaymentMethods:
 *   pm_card_visa: paid at once; pm_card_chargeDeclined: 402 card_error; pm_card_chargeDeclinedExpiredCard: an
 *   incomplete subscription whose PaymentIntent failed with expired_card; pm_card_authenticationRequired: the
 *   PaymentIntent requires_action until the test calls authenticate().
 * Money after the first payment: refunds (POST /v1/refunds, by PaymentIntent), the invoice a PaymentIntent paid
 * (GET /v1/invoice_payments), trials (trial_period_days: a trialing subscription with a paid $0 invoice), Connect
 * Express accounts and their onboarding links, and destination charges (transfer_data, application_fee_percent
 * kept on the subscription and its PaymentIntent).
 */

export interface RecordedCall {
  method: string;
  path: string;
  body: Record<string, any>;
  idempotencyKey?: string;
  authorization?: string;
}

type Obj = Record<string, any>;

export async function startStripeStandIn() {
  const calls: RecordedCall[] = [];
  const customers = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const intents = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const accounts = new Map<string, Obj>();
  const replays = new Map<string, { status: number; body: Obj }>();
  let counter = 0;
  const id = (prefix: string) => `${prefix}_${(++counter).toString().padStart(6, '0')}`;
  const now = () => Math.floor(Date.now() / 1000);
  const YEAR = 365 * 24 * 3600;

  function subscriptionView(sub: Obj, expand: string[]) {
    const view = { ...sub };
    if (expand.some((e) => e.startsWith('latest_invoice'))) {
      const invoice = invoices.get(sub.latest_invoice);
      view.latest_invoice = invoice ? { ...invoice } : sub.latest_invoice;
    }
    return view;
  }

  function createSubscription(body: Obj) {
    const item = body.items?.[0] ?? {};
    const priceData = item.price_data ?? {};
    const unitAmount = Number(priceData.unit_amount ?? 0);
    let amount = unitAmount;
    const coupon = body.discounts?.[0]?.coupon;
    const couponObj = coupon ? coupons.get(coupon) : undefined;
    if (couponObj?.percent_off) amount = unitAmount - Math.round((unitAmount * Number(couponObj.percent_off)) / 100);
    if (couponObj?.amount_off) amount = Math.max(0, unitAmount - Number(couponObj.amount_off));
    const pm = body.default_payment_method as string | undefined;
    if (pm === 'pm_card_chargeDeclined') {
      return {
        status: 402,
        body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
      };
    }
    const subId = id('sub');
    const invoiceId = id('in');
    const intentId = id('pi');
    const start = now();
    const trialDays = Number(body.trial_period_days ?? 0);
    // A trial's first invoice is for nothing and paid at once; the card is kept for the end of the trial.
    if (trialDays) amount = 0;
    const paid = pm === 'pm_card_visa' || trialDays > 0;
    const periodEnd = trialDays ? start + trialDays * 24 * 3600 : start + YEAR;
    const connect = body.transfer_data?.destination
      ? { transfer_data: { destination: body.transfer_data.destination }, application_fee_percent: Number(body.application_fee_percent) }
      : { transfer_data: null, application_fee_percent: null };
    const intent: Obj = {
      id: intentId,
      object: 'payment_intent',
      amount,
      currency: priceData.currency,
      status: paid ? 'succeeded' : pm === 'pm_card_authenticationRequired' ? 'requires_action' : 'requires_payment_method',
      amount_refunded: 0,
      transfer_data: connect.transfer_data,
      application_fee_amount:
        connect.application_fee_percent === null ? null : Math.round((amount * connect.application_fee_percent) / 100),
      last_payment_error:
        pm === 'pm_card_chargeDeclinedExpiredCard' ? { type: 'card_error', code: 'expired_card', decline_code: 'expired_card' } : null,
    };
    intents.set(intentId, intent);
    invoices.set(invoiceId, {
      id: invoiceId,
      object: 'invoice',
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      status: paid ? 'paid' : 'open',
      confirmation_secret: { client_secret: `${intentId}_secret_standin`, type: 'payment_intent' },
      parent: { type: 'subscription_details', subscription_details: { subscription: subId, metadata: body.metadata ?? {} } },
      lines: { object: 'list', data: [{ id: id('il'), period: { start, end: periodEnd } }] },
      payment_intent_id: intentId,
    });
    const sub: Obj = {
      id: subId,
      object: 'subscription',
      customer: body.customer,
      status: trialDays ? 'trialing' : paid ? 'active' : 'incomplete',
      trial_end: trialDays ? periodEnd : null,
      ...connect,
      cancel_at_period_end: false,
      default_payment_method: pm,
      metadata: body.metadata ?? {},
      discounts: coupon ? [coupon] : [],
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            current_period_start: start,
            current_period_end: periodEnd,
            price: {
              id: id('price'),
              object: 'price',
              unit_amount: unitAmount,
              currency: priceData.currency,
              product: priceData.product,
              recurring: priceData.recurring,
            },
          },
        ],
      },
      latest_invoice: invoiceId,
    };
    subscriptions.set(subId, sub);
    return { status: 200, body: subscriptionView(sub, body.expand ?? []) };
  }

  const coupons = new Map<string, Obj>();

  function route(method: string, path: string, body: Obj, query: Obj): { status: number; body: Obj } {
    const expand: string[] = [...(body.expand ?? []), ...(query.expand ?? [])];
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', email: body.email, name: body.name, metadata: body.metadata ?? {} };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/products') {
      return { status: 200, body: { id: id('prod'), object: 'product', name: body.name, metadata: body.metadata ?? {} } };
    }
    if (method === 'POST' && path === '/v1/coupons') {
      const coupon = {
        id: id('coupon'),
        object: 'coupon',
        name: body.name,
        duration: body.duration,
        percent_off: body.percent_off ? Number(body.percent_off) : null,
        amount_off: body.amount_off ? Number(body.amount_off) : null,
        currency: body.currency ?? null,
      };
      coupons.set(coupon.id, coupon);
      return { status: 200, body: coupon };
    }
    if (method === 'POST' && (m = path.match(/^\/v1\/payment_methods\/([^/]+)\/attach$/))) {
      if (!m[1].startsWith('pm_'))
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such PaymentMethod' } },
        };
      return { status: 200, body: { id: m[1], object: 'payment_method', customer: body.customer, type: 'card' } };
    }
    if (method === 'POST' && path === '/v1/subscriptions') return createSubscription(body);
    if ((m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = subscriptions.get(m[1]);
      if (!sub)
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } },
        };
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined)
          sub.cancel_at_period_end = body.cancel_at_period_end === 'true' || body.cancel_at_period_end === true;
      }
      if (method === 'DELETE') {
        sub.status = 'canceled';
        sub.ended_at = now();
      }
      return { status: 200, body: subscriptionView(sub, expand) };
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/payment_intents\/([^/]+)$/))) {
      const intent = intents.get(m[1]);
      if (!intent)
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } },
        };
      return { status: 200, body: intent };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(body.payment_intent);
      if (!intent)
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } },
        };
      const amount = body.amount === undefined ? intent.amount - intent.amount_refunded : Number(body.amount);
      if (amount > intent.amount - intent.amount_refunded) {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: 'Refund amount is greater than unrefunded amount',
            },
          },
        };
      }
      intent.amount_refunded += amount;
      const refund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        reason: body.reason ?? null,
        metadata: body.metadata ?? {},
        reverse_transfer: body.reverse_transfer === 'true',
        refund_application_fee: body.refund_application_fee === 'true',
        status: 'succeeded',
      };
      refunds.set(refund.id, refund);
      return { status: 200, body: refund };
    }
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const byIntent = query.payment?.payment_intent as string | undefined;
      const found = [...invoices.values()].filter((invoice) =>
        byIntent ? invoice.payment_intent_id === byIntent : invoice.id === query.invoice,
      );
      return {
        status: 200,
        body: {
          object: 'list',
          has_more: false,
          data: found.map((invoice) => ({
            id: id('inpay'),
            object: 'invoice_payment',
            invoice: invoice.id,
            payment: { type: 'payment_intent', payment_intent: invoice.payment_intent_id },
          })),
        },
      };
    }
    if (method === 'POST' && path === '/v1/accounts') {
      const account = {
        id: id('acct'),
        object: 'account',
        type: body.type,
        email: body.email,
        metadata: body.metadata ?? {},
        capabilities: body.capabilities ?? {},
        details_submitted: false,
        payouts_enabled: false,
        charges_enabled: false,
      };
      accounts.set(account.id, account);
      return { status: 200, body: account };
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const account = accounts.get(m[1]);
      if (!account)
        return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such account' } } };
      return { status: 200, body: account };
    }
    if (method === 'POST' && path === '/v1/account_links') {
      if (!accounts.has(body.account))
        return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such account' } } };
      return {
        status: 200,
        body: {
          object: 'account_link',
          url: `https://connect.stripe.test/setup/e/${body.account}`,
          return_url: body.return_url,
          refresh_url: body.refresh_url,
          type: body.type,
          expires_at: now() + 300,
        },
      };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        url: '',
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        client_reference_id: body.client_reference_id,
        customer: body.customer,
        line_items: body.line_items,
        discounts: body.discounts,
        metadata: body.metadata ?? {},
        subscription_data: body.subscription_data ?? {},
        subscription: null as string | null,
      };
      session.url = `https://checkout.stripe.test/c/pay/${session.id}`;
      sessions.set(session.id, session);
      return { status: 200, body: session };
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = sessions.get(m[1]);
      if (!session)
        return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such session' } } };
      const view = { ...session };
      if (expand.includes('subscription') && session.subscription)
        view.subscription = subscriptionView(subscriptions.get(session.subscription)!, []);
      return { status: 200, body: view };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } } };
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = qs.parse(raw) as Obj;
      const query = qs.parse(url.search.slice(1)) as Obj;
      const key = req.headers['idempotency-key'] as string | undefined;
      calls.push({ method: req.method ?? 'GET', path: url.pathname, body, idempotencyKey: key, authorization: req.headers.authorization });
      const replayKey = key ? `${req.method} ${url.pathname} ${key}` : undefined;
      const answer = (replayKey && replays.get(replayKey)) || route(req.method ?? 'GET', url.pathname, body, query);
      if (replayKey && !replays.has(replayKey)) replays.set(replayKey, answer);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    subscriptions,
    /** The fan finished (or failed) 3-D Secure in Stripe.js: the PaymentIntent and its subscription move on. */
    authenticate(subscriptionId: string, success: boolean) {
      const sub = subscriptions.get(subscriptionId)!;
      const invoice = invoices.get(sub.latest_invoice)!;
      const intent = intents.get(intent_id(invoice))!;
      if (success) {
        intent.status = 'succeeded';
        invoice.status = 'paid';
        invoice.amount_paid = invoice.amount_due;
        sub.status = 'active';
      } else {
        intent.status = 'requires_payment_method';
        intent.last_payment_error = { type: 'card_error', code: 'payment_intent_authentication_failure' };
      }
    },
    /** The fan paid on the Checkout page: the session completes with a new active subscription. */
    completeCheckout(sessionId: string) {
      const session = sessions.get(sessionId)!;
      if (session.status === 'complete') return session.subscription as string;
      const created = createSubscription({
        customer: session.customer,
        items: [{ price_data: session.line_items[0].price_data }],
        default_payment_method: 'pm_card_visa',
        discounts: session.discounts,
        metadata: session.subscription_data.metadata,
      });
      session.status = 'complete';
      session.payment_status = 'paid';
      session.subscription = created.body.id;
      return created.body.id as string;
    },
    /** Where Checkout sends the fan back to after paying. */
    successUrl(sessionId: string) {
      return sessions.get(sessionId)?.success_url as string | undefined;
    },
    refunds,
    accounts,
    /** The PaymentIntent behind a subscription's latest invoice (what refunds and disputes name). */
    intentOf(subscriptionId: string) {
      return invoices.get(subscriptions.get(subscriptionId)!.latest_invoice)!.payment_intent_id as string;
    },
    intent(intentId: string) {
      return intents.get(intentId);
    },
    /** Stripe renewed the subscription: a new paid invoice (and its PaymentIntent), as invoice.paid will carry it. */
    renew(subscriptionId: string) {
      const sub = subscriptions.get(subscriptionId)!;
      const item = sub.items.data[0];
      const start = item.current_period_end;
      const invoiceId = id('in');
      const intentId = id('pi');
      const amount = item.price.unit_amount;
      intents.set(intentId, {
        id: intentId,
        object: 'payment_intent',
        amount,
        currency: item.price.currency,
        status: 'succeeded',
        amount_refunded: 0,
        transfer_data: sub.transfer_data,
      });
      const invoice = {
        id: invoiceId,
        object: 'invoice',
        amount_due: amount,
        amount_paid: amount,
        status: 'paid',
        parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: sub.metadata } },
        lines: { object: 'list', data: [{ id: id('il'), period: { start, end: start + YEAR } }] },
        payment_intent_id: intentId,
      };
      invoices.set(invoiceId, invoice);
      item.current_period_start = start;
      item.current_period_end = start + YEAR;
      sub.latest_invoice = invoiceId;
      if (sub.status === 'trialing') sub.status = 'active';
      return invoice;
    },
    /** The artist finished Stripe's onboarding: the account takes payouts. */
    completeOnboarding(accountId: string) {
      const account = accounts.get(accountId)!;
      account.details_submitted = true;
      account.payouts_enabled = true;
      account.charges_enabled = true;
      return account;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function intent_id(invoice: Obj) {
    return String(invoice.confirmation_secret.client_secret).split('_secret_')[0];
  }
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
