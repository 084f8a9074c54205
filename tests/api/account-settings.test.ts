import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settingsMessages } from '#contract/account-settings';
import {
  call,
  describeEachDatabase,
  FAN_PASSWORD,
  login,
  makeArtist,
  registerFan,
  startTestApi,
  subscribe,
  waitForMail,
  type TestApi,
} from '../helpers/api';

/**
 * Account settings (docs/api.md "Account settings"): name, picture, email (confirmed by a link mailed to the
 * new address), password, the data download and deleting the account (docs/decisions/015-account-deletion.md).
 */
describeEachDatabase('account settings', (database) => {
  let t: TestApi;
  beforeAll(async () => {
    // The data download's push subscription names a push service that is not on the internet here: let it through.
    t = await startTestApi({ database: database.name, env: { PUSH_ALLOW_HOSTS: 'push.example.net' } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const me = async (token: string) => (await call(t.url, 'GET', '/users/me', { token })).body.data;

  it('changes the name, and refuses an empty or too long one with the field’s message', async () => {
    const fan = await registerFan(t);
    const renamed = await call(t.url, 'PUT', '/users/me/name', { token: fan.token, body: { name: '  Robin Vale ' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Robin Vale');
    expect((await me(fan.token)).name).toBe('Robin Vale');
    const empty = await call(t.url, 'PUT', '/users/me/name', { token: fan.token, body: { name: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors?.name).toEqual([settingsMessages.nameRequired]);
    const long = await call(t.url, 'PUT', '/users/me/name', { token: fan.token, body: { name: 'x'.repeat(61) } });
    expect(long.body.errors?.name).toEqual([settingsMessages.nameTooLong]);
  });

  it('takes a picture as a square WebP served publicly, replaces it, and removes it', async () => {
    const fan = await registerFan(t);
    const png = await sharp({ create: { width: 600, height: 300, channels: 3, background: '#f9ef1e' } })
      .png()
      .toBuffer();
    const send = async (bytes: Uint8Array, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), 'me.png');
      const response = await fetch(new URL('/users/me/avatar', t.url), {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${fan.token}` },
      });
      return { status: response.status, body: (await response.json()) as { data: { avatar: string }; errors?: Record<string, string[]> } };
    };
    const first = await send(png, 'image/png');
    expect(first.status).toBe(200);
    const avatar = first.body.data.avatar;
    expect(avatar).toMatch(/\/users\/avatars\/[0-9a-f-]{36}$/);
    const served = await fetch(new URL(new URL(avatar).pathname, t.url));
    expect(served.headers.get('content-type')).toBe('image/webp');
    const size = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([size.width, size.height]).toEqual([256, 256]);

    const text = await send(new TextEncoder().encode('not a picture at all'), 'image/png');
    expect(text.status).toBe(415);
    expect(text.body.errors?.file).toEqual([settingsMessages.avatarUnsupported]);

    const second = await send(png, 'image/png');
    expect(second.body.data.avatar).not.toBe(avatar);
    // The picture replaced is no longer served.
    expect((await fetch(new URL(new URL(avatar).pathname, t.url))).status).toBe(404);
    const removed = await call(t.url, 'DELETE', '/users/me/avatar', { token: fan.token });
    expect(removed.body.data.avatar).toBe('');
    expect((await fetch(new URL(new URL(second.body.data.avatar).pathname, t.url))).status).toBe(404);
  });

  it('changes the email only once the link mailed to the new address is opened, and tells the old address', async () => {
    const fan = await registerFan(t);
    const wrong = await call(t.url, 'POST', '/users/me/email', {
      token: fan.token,
      body: { email: `new-${fan.email}`, currentPassword: 'Not-The-Password-1' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors?.currentPassword).toEqual([settingsMessages.currentPasswordIncorrect]);
    const other = await registerFan(t);
    const taken = await call(t.url, 'POST', '/users/me/email', {
      token: fan.token,
      body: { email: other.email, currentPassword: FAN_PASSWORD },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors?.email).toEqual([settingsMessages.emailTaken]);

    const newEmail = `new-${fan.email}`;
    const asked = await call(t.url, 'POST', '/users/me/email', {
      token: fan.token,
      body: { email: newEmail, currentPassword: FAN_PASSWORD },
    });
    expect(asked.status).toBe(200);
    expect(asked.body.data.pendingEmail).toBe(newEmail);
    // Nothing changes until the link is opened.
    expect((await me(fan.token)).email).toBe(fan.email);
    const mail = await waitForMail(t, newEmail);
    const token = /\/account\/email\/confirm\?token=([\w-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();

    expect((await call(t.url, 'POST', '/users/email/confirm', { body: { token: 'forged' } })).status).toBe(400);
    const confirmed = await call(t.url, 'POST', '/users/email/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    expect((await me(fan.token)).email).toBe(newEmail);
    expect((await waitForMail(t, fan.email)).subject).toBe('The email address of your Stagedoor account was changed');
    // A link works once.
    const again = await call(t.url, 'POST', '/users/email/confirm', { body: { token } });
    expect(again.body.errors?.token).toEqual([settingsMessages.emailLinkInvalid]);
  });

  it('changes the password with the current one: other devices sign in again, this one stays', async () => {
    const fan = await registerFan(t);
    const elsewhere = (await login(t, fan.username, FAN_PASSWORD)).body.data.token;
    const password = 'Encore-Please-22!';
    const wrong = await call(t.url, 'PUT', '/users/me/password', {
      token: fan.token,
      body: { currentPassword: 'Wrong-Password-1!', password, confirmPassword: password },
    });
    expect(wrong.status).toBe(422);
    const weak = await call(t.url, 'PUT', '/users/me/password', {
      token: fan.token,
      body: { currentPassword: FAN_PASSWORD, password: 'short', confirmPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    const changed = await call(t.url, 'PUT', '/users/me/password', {
      token: fan.token,
      body: { currentPassword: FAN_PASSWORD, password, confirmPassword: password },
    });
    expect(changed.status).toBe(200);
    expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).status).toBe(200);
    expect((await call(t.url, 'GET', '/users/me', { token: elsewhere })).status).toBe(401);
    expect((await login(t, fan.username, password)).status).toBe(200);
    expect((await login(t, fan.username, FAN_PASSWORD)).status).toBe(422);
  });

  it('downloads the user’s own data and deletes the account: memberships end at period end, the artist keeps anonymous records', async () => {
    const artist = await registerFan(t, 'artist');
    await makeArtist(t, artist, { yearlyPriceCents: 500, name: 'Juniper Lane' });
    const fan = await registerFan(t);
    const bystander = await registerFan(t);
    await subscribe(t, fan.id, artist.id);
    const [{ id: subscriptionId, expiresAt }] = await t.db.query<{ id: string; expiresAt: Date }>(
      'SELECT id, expires_at AS "expiresAt" FROM subscriptions WHERE user_id = $1',
      [fan.id],
    );
    await t.db.query(
      `INSERT INTO payments (user_id, artist_id, subscription_id, gateway, status, amount_cents, list_price_cents)
       VALUES ($1, $2, $3, 'test', 'succeeded', 500, 500)`,
      [fan.id, artist.id, subscriptionId],
    );
    const conversation = await call(t.url, 'POST', '/conversations', {
      token: fan.token,
      body: { source: 'performer', sourceId: artist.id },
    });
    await call(t.url, 'POST', `/messages/conversations/${conversation.body.data._id}`, {
      token: fan.token,
      body: { text: 'Loved the show' },
    });

    const exported = await call(t.url, 'GET', '/users/me/export', { token: fan.token });
    expect(exported.status).toBe(200);
    expect(exported.body.data.account).toMatchObject({ username: fan.username, email: fan.email });
    expect(exported.body.data.memberships).toMatchObject([{ artist: artist.username, status: 'active' }]);
    expect(exported.body.data.payments).toMatchObject([{ artist: artist.username, amount: 5, status: 'succeeded' }]);
    expect(exported.body.data.messages).toMatchObject([{ artist: artist.username, text: 'Loved the show' }]);
    expect(JSON.stringify(exported.body.data)).not.toContain(bystander.username);

    const artistRefused = await call(t.url, 'DELETE', '/users/me', {
      token: artist.token,
      body: { currentPassword: FAN_PASSWORD, confirm: 'on' },
    });
    expect(artistRefused.status).toBe(409);
    const unconfirmed = await call(t.url, 'DELETE', '/users/me', { token: fan.token, body: { currentPassword: FAN_PASSWORD } });
    expect(unconfirmed.body.errors?.confirm).toEqual([settingsMessages.deleteConfirmRequired]);
    const wrong = await call(t.url, 'DELETE', '/users/me', {
      token: fan.token,
      body: { currentPassword: 'Wrong-Password-1!', confirm: 'on' },
    });
    expect(wrong.status).toBe(422);

    const deleted = await call(t.url, 'DELETE', '/users/me', { token: fan.token, body: { currentPassword: FAN_PASSWORD, confirm: 'on' } });
    expect(deleted.status).toBe(200);
    expect((await call(t.url, 'GET', '/users/me', { token: fan.token })).status).toBe(401);
    expect((await login(t, fan.email, FAN_PASSWORD)).status).toBe(422);
    const [row] = await t.db.query<{ username: string; email: string; name: string; status: string }>(
      'SELECT username, email, name, status FROM users WHERE id = $1',
      [fan.id],
    );
    expect(row).toMatchObject({ name: 'Deleted fan', status: 'deleted' });
    expect(`${row.username} ${row.email}`).not.toContain(fan.username);
    // The membership runs to the end of its paid year and is never renewed; the payment stays in the artist's books.
    const [membership] = await t.db.query<{ autoRenew: boolean; status: string; expiresAt: Date }>(
      'SELECT auto_renew AS "autoRenew", status, expires_at AS "expiresAt" FROM subscriptions WHERE id = $1',
      [subscriptionId],
    );
    expect(membership).toMatchObject({ autoRenew: false, status: 'active' });
    expect(new Date(membership.expiresAt).getTime()).toBe(new Date(expiresAt).getTime());
    const payments = await call(t.url, 'GET', '/performers/me/payments', { token: artist.token });
    expect(JSON.stringify(payments.body.data)).not.toContain(fan.username);
    expect(JSON.stringify(payments.body.data)).toContain('5');
    // The artist's conversation still reads, from a fan with no name.
    const messages = await call(t.url, 'GET', `/messages/conversations/${conversation.body.data._id}`, { token: artist.token });
    expect(messages.body.data.data).toMatchObject([{ text: 'Loved the show', senderInfo: { name: 'Deleted fan' } }]);
  });

  it('the data download holds push subscriptions (without keys or address), notifications, and gifts bought and received (without links)', async () => {
    const artist = await registerFan(t, 'exportartist');
    await makeArtist(t, artist, { yearlyPriceCents: 1500, name: 'Export Band' });
    const buyer = await registerFan(t);
    const fan = await registerFan(t);
    const card = async () =>
      (
        await call(t.url, 'POST', '/payment/test-gateway/cards', {
          token: buyer.token,
          body: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
        })
      ).body.data.id as string;
    const bought = await call(t.url, 'POST', '/gifts', {
      token: buyer.token,
      body: { performerId: artist.id, recipientEmail: fan.email, message: 'For the tour', paymentGateway: 'test', cardId: await card() },
    });
    expect(bought.body.data.status, JSON.stringify(bought.body)).toBe('succeeded');
    const mail = await waitForMail(t, fan.email);
    const token = /\/gift\/([\w-]+)/.exec(mail.text)![1];
    expect((await call(t.url, 'POST', `/gifts/${token}/redeem`, { token: fan.token })).body.data.state).toBe('yours');
    const returned = await call(t.url, 'POST', '/gifts', {
      token: buyer.token,
      body: { performerId: artist.id, recipientEmail: 'someone@example.com', paymentGateway: 'test', cardId: await card() },
    });
    await call(t.url, 'POST', `/payments/${returned.body.data._id}/refund`, { token: artist.token, body: { reason: 'Wrong address' } });

    const endpoint = `https://push.example.net/send/${fan.username}-secret-path`;
    const keys = {
      p256dh: 'BPublicKeyOfTheBrowser0000000000000000000000000000000000000000000000000000000000000000000',
      auth: 'authsecret000000000000',
    };
    expect((await call(t.url, 'POST', '/notifications/push/subscriptions', { token: fan.token, body: { endpoint, keys } })).status).toBe(
      201,
    );
    const post = await call(t.url, 'POST', '/content', {
      token: artist.token,
      body: { title: 'New song', content: 'Out now', tags: 'post' },
    });
    expect(post.status, JSON.stringify(post.body)).toBeLessThan(300);
    const deadline = Date.now() + 15_000;
    while (!(await t.db.query('SELECT 1 FROM notifications WHERE user_id = $1', [fan.id])).length) {
      if (Date.now() > deadline) throw new Error('no notification within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const fanExport = (await call(t.url, 'GET', '/users/me/export', { token: fan.token })).body.data;
    expect(fanExport.pushSubscriptions).toEqual([{ service: 'https://push.example.net', createdAt: expect.any(String) }]);
    expect(fanExport.notifications).toMatchObject([{ artist: artist.username, itemId: post.body.data._id, inApp: true }]);
    expect(fanExport.giftsReceived).toMatchObject([
      { artist: artist.username, from: buyer.username, message: 'For the tour', state: 'opened', yearFrom: expect.any(String) },
    ]);
    expect(fanExport.giftsBought).toEqual([]);
    const fanText = JSON.stringify(fanExport);
    for (const secret of [keys.p256dh, keys.auth, 'secret-path', token, buyer.email]) expect(fanText).not.toContain(secret);

    const buyerExport = (await call(t.url, 'GET', '/users/me/export', { token: buyer.token })).body.data;
    expect(buyerExport.giftsBought).toMatchObject([
      { artist: artist.username, recipientEmail: fan.email, message: 'For the tour', state: 'opened', amount: 15, refunded: 0 },
      { artist: artist.username, recipientEmail: 'someone@example.com', state: 'refunded', amount: 15, refunded: 15, openedAt: null },
    ]);
    expect(buyerExport.giftsReceived).toEqual([]);
    const buyerText = JSON.stringify(buyerExport);
    expect(buyerText).not.toContain(token);
    // Not which account opened it (its address is the one the buyer typed).
    expect(buyerText).not.toContain(fan.id);
  });
});
