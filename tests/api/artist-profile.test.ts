import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { upload } from './content-fixtures';
import { profileMessages } from '#contract/artist-profile';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, subscribe, type TestApi, type TestUser } from '../helpers/api';

const ADMIN_TOKEN = 'artist-profile-admin-token-0123456789';

/** PUT /performers/me and GET /performers/me/subscribers: the artist's own account page. */
describeEachDatabase('the artist’s profile and subscribers', (database) => {
  let t: TestApi;
  let artist: TestUser;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, adminToken: ADMIN_TOKEN });
    artist = await registerFan(t, 'profileartist');
    await makeArtist(t, artist, { yearlyPriceCents: 1000, name: 'Before' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves the profile and offer, which the public artist then shows', async () => {
    const answer = await call(t.url, 'PUT', '/performers/me', {
      token: artist.token,
      body: {
        name: 'After Name',
        bio: 'A new bio',
        yearlyPrice: '19.50',
        headlineOfferDescription: 'Everything, first',
        subscriptionPerks: 'Demos\n\n  Presales  \nMessages',
        successPageTitle: 'Welcome in',
        secondarySuccessMessage: 'You are a member',
        additionalSuccessMessage: 'Start with the vault',
        heroImageAltText: 'The band on stage',
        headlineImageAltText: 'Logo',
        activateWelcomeVideo: 'on',
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const pub = (await call(t.url, 'GET', `/performers/${artist.username}`)).body.data;
    expect(pub).toMatchObject({
      name: 'After Name',
      bio: 'A new bio',
      yearlyPrice: 19.5,
      headlineOfferDescription: 'Everything, first',
      subscriptionPerks: ['Demos', 'Presales', 'Messages'],
      successPageTitle: 'Welcome in',
      secondarySuccessMessage: 'You are a member',
      additionalSuccessMessage: 'Start with the vault',
      heroImageAltText: 'The band on stage',
      activateWelcomeVideo: true,
    });
  });

  it('refuses bad input on the right field, fans, and the signed out', async () => {
    const bad = await call(t.url, 'PUT', '/performers/me', {
      token: artist.token,
      body: { name: ' ', yearlyPrice: '-3', successPageTitle: 'x'.repeat(101) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({
      name: [profileMessages.name],
      yearlyPrice: [profileMessages.price],
      successPageTitle: [profileMessages.tooLong(100)],
    });
    const fan = await registerFan(t);
    expect((await call(t.url, 'PUT', '/performers/me', { token: fan.token, body: { name: 'x', yearlyPrice: 1 } })).status).toBe(403);
    expect((await call(t.url, 'PUT', '/performers/me', { body: { name: 'x', yearlyPrice: 1 } })).status).toBe(401);
    expect((await call(t.url, 'GET', '/performers/me/subscribers', { token: fan.token })).status).toBe(403);
  });

  it('lists the active subscribers newest first, with the total', async () => {
    const first = await registerFan(t);
    const second = await registerFan(t);
    const lapsed = await registerFan(t);
    await subscribe(t, first.id, artist.id);
    await t.db.query(`UPDATE subscriptions SET started_at = now() - interval '2 days' WHERE user_id = $1`, [first.id]);
    await subscribe(t, second.id, artist.id);
    await subscribe(t, lapsed.id, artist.id);
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [lapsed.id]);
    const answer = await call(t.url, 'GET', '/performers/me/subscribers', { token: artist.token, query: { limit: 5 } });
    expect(answer.body.data.total).toBe(2);
    expect(answer.body.data.data.map((s: { username: string }) => s.username)).toEqual([second.username, first.username]);
  });

  it('keeps a page of subscribers, and shows at once a fan who joins, a new name, an ended membership and one run out', async () => {
    const band = await registerFan(t);
    await makeArtist(t, band, { yearlyPriceCents: 1000 });
    const [early, late, third] = [await registerFan(t), await registerFan(t), await registerFan(t)];
    await subscribe(t, early.id, band.id);
    const list = async (): Promise<{ username: string; name: string }[]> =>
      (await call(t.url, 'GET', '/performers/me/subscribers', { token: band.token, query: { limit: 10 } })).body.data.data;
    const names = async () => (await list()).map((s) => s.username);
    const join = async (fan: TestUser) => {
      const card = await call<{ id: string }>(t.url, 'POST', '/payment/test-gateway/cards', {
        token: fan.token,
        body: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
      });
      const joined = await call(t.url, 'POST', '/payment/subscribe/performers', {
        token: fan.token,
        body: { type: 'yearly', performerId: band.id, paymentGateway: 'test', cardId: card.body.data.id },
      });
      expect(joined.status, JSON.stringify(joined.body)).toBeLessThan(300);
    };
    expect(await names()).toEqual([early.username]);
    const money = async () => (await call(t.url, 'GET', '/performers/me/money', { token: band.token })).body.data;
    expect(await money()).toMatchObject({ currencyLocked: false, yearlyPrice: 10 });
    await join(late);
    // Paid in: the currency is now the fans' receipts' and cannot change.
    expect(await money()).toMatchObject({ currencyLocked: true, yearlyPrice: 10 });
    expect(await names()).toEqual([late.username, early.username]);
    expect((await call(t.url, 'PUT', '/users/me/name', { token: early.token, body: { name: 'Early Bird' } })).status).toBe(200);
    expect((await list()).map((s) => s.name)).toContain('Early Bird');
    const ended = await call(t.url, 'POST', '/admin/memberships/end', {
      headers: { 'x-stagedoor-admin-token': ADMIN_TOKEN },
      body: { artist: band.username, fan: `${early.username}@example.com` },
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(await names()).toEqual([late.username]);
    // A membership that runs out by the clock (renewal off) leaves the list on time, with no write to tell the cache.
    const [{ lapse }] = await t.db.query<{ lapse: Date }>(
      `UPDATE subscriptions SET expires_at = now() + interval '3 seconds', auto_renew = false WHERE user_id = $1 RETURNING expires_at AS lapse`,
      [late.id],
    );
    const lapsesAt = new Date(lapse).getTime();
    await join(third);
    const readAt = Date.now();
    const kept = await names();
    expect(kept[0]).toBe(third.username);
    // (Unless the machine took the 3 s to join: then the membership has run out by the time the list is read.)
    if (readAt < lapsesAt - 500) expect(kept).toEqual([third.username, late.username]);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lapsesAt - Date.now()) + 100));
    expect(await names()).toEqual([third.username]);
  });

  it('profile images: an uploaded image becomes the hero image, served publicly while the profile uses it', async () => {
    const png = await sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 10, g: 200, b: 90 } } })
      .png()
      .toBuffer();
    const uploaded = await upload(t, artist.token, png, { filename: 'hero.png', type: 'image/png', kind: 'image' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const id = uploaded.body.data._id as string;

    // Not public before a profile uses it.
    expect((await fetch(new URL(`/performers/images/${id}`, t.url))).status).toBe(404);
    const set = await call(t.url, 'PUT', '/performers/me/images', { token: artist.token, body: { heroImage: id } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.heroImage).toBe(`${t.config.publicApiUrl}/performers/images/${id}`);
    const served = await fetch(new URL(`/performers/images/${id}`, t.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    // Someone else's upload cannot be named; clearing makes it private again.
    const other = await registerFan(t, 'otherprofile');
    await makeArtist(t, other);
    expect((await call(t.url, 'PUT', '/performers/me/images', { token: other.token, body: { avatar: id } })).status).toBe(400);
    await call(t.url, 'PUT', '/performers/me/images', { token: artist.token, body: { heroImage: null } });
    expect((await call(t.url, 'GET', `/performers/${artist.username}`)).body.data.heroImage).toBe('');
    expect((await fetch(new URL(`/performers/images/${id}`, t.url))).status).toBe(404);
  });

  it('profile images: an image the profile shows is not deleted, by DELETE /media nor with a post that used it too', async () => {
    const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: { r: 200, g: 20, b: 90 } } })
      .png()
      .toBuffer();
    const uploaded = await upload(t, artist.token, png, { filename: 'avatar.png', type: 'image/png', kind: 'image' });
    const id = uploaded.body.data._id as string;
    expect((await call(t.url, 'PUT', '/performers/me/images', { token: artist.token, body: { avatar: id } })).status).toBe(200);

    const refused = await call(t.url, 'DELETE', `/media/${id}`, { token: artist.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This file is still used by a post, a collection or your profile.');
    expect((await fetch(new URL(`/performers/images/${id}`, t.url))).status).toBe(200);

    // The same upload as a post's thumbnail: deleting the post lets go of its media, but the avatar keeps it.
    const post = await call<{ _id: string }>(t.url, 'POST', '/content', {
      token: artist.token,
      body: { title: 'With the avatar as thumbnail', content: 'Hello', tags: 'post', thumbnailId: id },
    });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    expect((await call(t.url, 'DELETE', `/content/${post.body.data._id}`, { token: artist.token })).status).toBe(200);
    expect((await fetch(new URL(`/performers/images/${id}`, t.url))).status).toBe(200);

    // Once the profile lets go of it, the upload can be deleted.
    await call(t.url, 'PUT', '/performers/me/images', { token: artist.token, body: { avatar: null } });
    expect((await call(t.url, 'DELETE', `/media/${id}`, { token: artist.token })).status).toBe(200);
    expect((await call(t.url, 'DELETE', `/media/${id}`, { token: artist.token })).status).toBe(404);
  });

  it('profile images: a large upload is served at its 1280 px display size, not as uploaded', async () => {
    const png = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: { r: 10, g: 20, b: 90 } } })
      .png()
      .toBuffer();
    const uploaded = await upload(t, artist.token, png, { filename: 'cover.png', type: 'image/png', kind: 'image' });
    const id = uploaded.body.data._id as string;
    expect((await call(t.url, 'PUT', '/performers/me/images', { token: artist.token, body: { cover: id } })).status).toBe(200);
    const served = await fetch(new URL(`/performers/images/${id}`, t.url));
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 1280 });
    await call(t.url, 'PUT', '/performers/me/images', { token: artist.token, body: { cover: null } });
  });
});
