import { expect, type APIRequestContext, type Browser } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { apiBase, logIn, registerFan, signIn, uniqueName, type Fan } from './helpers';

/**
 * What the money pages' browser tests set up through the api: an artist of their own (made through the operator
 * endpoint, in the currency asked), promo codes, and fans who paid with the test gateway's card.
 */

export const ARTIST_PASSWORD = 'Money-Stage-2026!';

export async function apiCall<T>(
  request: APIRequestContext,
  method: string,
  url: string,
  options: { token?: string; data?: unknown; headers?: Record<string, string> } = {},
) {
  const answer = await request.fetch(`${apiBase}${url}`, {
    method,
    data: options.data,
    headers: { ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  });
  expect(answer.status(), `${method} ${url}: ${await answer.text()}`).toBeLessThan(300);
  return ((await answer.json()) as { data: T }).data;
}

const adminHeaders = () => ({
  'x-stagedoor-admin-token': fs.readFileSync(path.join(process.env.E2E_DATA_DIR ?? '', 'admin-token'), 'utf8').trim(),
});

export interface MoneyArtist {
  id: string;
  username: string;
  email: string;
  token: string;
}

export async function newArtist(request: APIRequestContext, yearlyPrice: string, currency = 'gbp'): Promise<MoneyArtist> {
  const username = uniqueName('band');
  const email = `${username}@example.com`;
  await apiCall(request, 'POST', '/admin/artists', {
    data: { username, email, password: ARTIST_PASSWORD, name: `Band ${username.slice(4, 10)}`, yearlyPrice, currency },
    headers: adminHeaders(),
  });
  const token = await logIn(request, username, ARTIST_PASSWORD);
  const artist = await apiCall<{ _id: string }>(request, 'GET', `/performers/${username}`);
  return { id: artist._id, username, email, token };
}

export async function newPromo(request: APIRequestContext, artist: string, code: string, percentOff: number) {
  await apiCall(request, 'POST', '/admin/promos', { data: { artist, code, percentOff }, headers: adminHeaders() });
}

/** A new fan who pays the artist with 4242 4242 4242 4242 (and a promo code). */
export async function payingFan(request: APIRequestContext, artist: MoneyArtist, promo?: string): Promise<Fan & { paymentId: string }> {
  const fan = await registerFan(request);
  const card = await apiCall<{ id: string }>(request, 'POST', '/payment/test-gateway/cards', {
    token: fan.token,
    data: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
  });
  const payment = await apiCall<{ _id: string; status: string }>(request, 'POST', '/payment/subscribe/performers', {
    token: fan.token,
    data: { type: 'yearly', performerId: artist.id, paymentGateway: 'test', cardId: card.id, promo },
  });
  expect(payment.status).toBe('succeeded');
  return { ...fan, paymentId: payment._id };
}

/** A browser context signed in with this token (the session cookie, as the log-in form sets it). */
export async function signedIn(browser: Browser, token: string, options: { javaScriptEnabled?: boolean; width?: number } = {}) {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  await signIn(context, token);
  return context;
}

/** The newest mail to `email` in the server's outbox (DATA_DIR/outbox) whose subject matches; waits for it. */
export async function mailFromOutbox(email: string, subject: RegExp) {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  let found: { subject: string; text: string } | undefined;
  await expect
    .poll(
      async () => {
        const names = (await fs.promises.readdir(dir).catch(() => [] as string[]))
          .filter((name) => name.endsWith('.json'))
          .sort()
          .reverse();
        for (const name of names) {
          const mail = JSON.parse(await fs.promises.readFile(path.join(dir, name), 'utf8')) as {
            to: string;
            subject: string;
            text: string;
          };
          if (mail.to === email && subject.test(mail.subject)) {
            found = mail;
            return true;
          }
        }
        return false;
      },
      { message: `a mail to ${email} matching ${subject} in ${dir}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}
