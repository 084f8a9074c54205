import { afterAll, beforeAll, expect, it } from 'vitest';
import { REDACTED } from '#contract/log-redaction';
import { call, clientAddress, makeArtist, registerFan, startTestApi, waitForMail, type TestApi } from '../helpers/api';

/**
 * The api's log holds no secrets (docs/security.md, finding 8): it logs every failed request with its URL, and the mail it
 * sends; reset tokens, media signatures and approval secrets come out as [REDACTED].
 */
let t: TestApi;
const lines: string[] = [];

beforeAll(async () => {
  t = await startTestApi({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line: string) => void lines.push(line) } });
});
afterAll(async () => {
  await t?.close();
});

it('logs failed requests and mails without their secrets', async () => {
  const fan = await registerFan(t);
  expect(
    (
      await call(t.url, 'POST', '/auth/password-change', {
        query: { token: 'reset-token-in-the-url' },
        body: { password: 'Fresh-Start-2026!' },
      })
    ).status,
  ).toBe(400);
  expect(
    (await call(t.url, 'GET', '/media/00000000-0000-4000-8000-000000000000', { query: { expires: 1, sig: 'media-signature' } })).status,
  ).toBe(404);
  expect(
    (
      await call(t.url, 'GET', '/payment/test-gateway/authenticate/00000000-0000-4000-8000-000000000000', {
        query: { secret: 'approval-secret' },
      })
    ).status,
  ).toBe(404);
  expect(
    (await call(t.url, 'POST', '/auth/users/forgot', { body: { email: fan.email }, headers: { 'x-forwarded-for': clientAddress() } }))
      .status,
  ).toBe(200);
  const mail = await waitForMail(t, fan.email);
  const resetToken = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!;

  const log = lines.join('');
  for (const secret of ['reset-token-in-the-url', 'media-signature', 'approval-secret', resetToken]) expect(log).not.toContain(secret);
  expect(log).toContain(`/auth/password-change?token=${REDACTED}`);
  expect(log).toContain(`sig=${REDACTED}`);
});

it('logs a failed gift request without the gift link, whose path is the secret', async () => {
  const band = await registerFan(t, 'giftband');
  await makeArtist(t, band, { yearlyPriceCents: 2500, name: 'Redacted Band' });
  const buyer = await registerFan(t);
  const card = await call(t.url, 'POST', '/payment/test-gateway/cards', {
    token: buyer.token,
    body: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
  });
  const recipient = `gift${Date.now()}@example.com`;
  const bought = await call(t.url, 'POST', '/gifts', {
    token: buyer.token,
    body: { performerId: band.id, recipientEmail: recipient, message: 'Enjoy', paymentGateway: 'test', cardId: card.body.data.id },
  });
  expect(bought.body.data?.status, JSON.stringify(bought.body)).toBe('succeeded');
  const mail = await waitForMail(t, recipient);
  const token = /\/gift\/([\w-]+)/.exec(mail.text)![1];

  // Each of these fails, so each is logged with its URL: signed out, an artist (who cannot open a gift), a link
  // written with its slash encoded.
  expect((await call(t.url, 'POST', `/gifts/${token}/redeem`)).status).toBe(401);
  expect((await call(t.url, 'POST', `/gifts/${token}/redeem`, { token: band.token })).status).toBe(403);
  expect((await call(t.url, 'GET', `/gifts/${token}x`)).status).toBe(404);

  const log = lines.join('');
  expect(log).not.toContain(token);
  expect(log).toContain(`/gifts/${REDACTED}/redeem`);
});
