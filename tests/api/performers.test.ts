import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_HEADER } from '../../api/admin/routes';
import { DEMO_ARTIST_PASSWORD, DEMO_ARTISTS, DEMO_FAN, seed } from '../../api/db/seed';
import { call, describeEachDatabase, login, makeArtist, registerFan, startTestApi, subscribe, type TestApi } from '../helpers/api';

/** Every field of an artist that the api sends (cover and welcomeVideoPath only when set). */
const ARTIST_FIELDS = [
  '_id',
  'name',
  'bio',
  'avatar',
  'cover',
  'username',
  'stats',
  'activateWelcomeVideo',
  'yearlyPrice',
  'currency',
  'trialDays',
  'keepPaidItems',
  'isSubscribed',
  'headlineImage',
  'heroImage',
  'heroImageAltText',
  'headlineImageAltText',
  'vaultPageIntroduction',
  'postsPageIntroduction',
  'privacyPolicy',
  'headlineOfferDescription',
  'subscriptionPerks',
  'successPageTitle',
  'secondarySuccessMessage',
  'additionalSuccessMessage',
  'successImages',
].sort();

/** Artists, subscriptions and the realtime handshake over real HTTP, on a database holding the demo seed. */
const ADMIN_TOKEN = 'performers-admin-token';

describeEachDatabase('artists and subscriptions', (database) => {
  let t: TestApi;
  let demoFanToken: string;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, adminToken: ADMIN_TOKEN });
    await seed(t.db);
    demoFanToken = (await login(t, DEMO_FAN.email, DEMO_FAN.password)).body.data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the seed signs in: the demo fan and the three demo artists', async () => {
    expect(demoFanToken).toEqual(expect.any(String));
    for (const artist of Object.values(DEMO_ARTISTS)) {
      const answer = await login(t, artist.email, DEMO_ARTIST_PASSWORD);
      expect(answer.status, artist.email).toBe(200);
      const me = await call(t.url, 'GET', '/users/me', { token: answer.body.data.token });
      expect(me.body.data).toMatchObject({ username: artist.username, name: artist.name, isPerformer: true });
      expect(me.body.data.avatar).toBe(`/images/seed/${artist.username}/avatar.svg`);
    }
  });

  it('GET /performers/{username} answers every artist field, filled in by the seed', async () => {
    const answer = await call(t.url, 'GET', '/performers/novaricci');
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe(0);
    const artist = answer.body.data;
    expect(Object.keys(artist).sort()).toEqual(ARTIST_FIELDS);
    expect(artist).toMatchObject({
      name: 'Nova Ricci',
      username: 'novaricci',
      yearlyPrice: 49.99,
      currency: 'usd',
      trialDays: 0,
      isSubscribed: false,
      activateWelcomeVideo: false,
      avatar: '/images/seed/novaricci/avatar.svg',
      cover: '/images/seed/novaricci/cover.svg',
      heroImage: '/images/seed/novaricci/hero.svg',
      headlineImage: '/images/seed/novaricci/headline.svg',
      stats: { subscribers: 0 },
    });
    for (const text of [
      'bio',
      'heroImageAltText',
      'headlineImageAltText',
      'headlineOfferDescription',
      'successPageTitle',
      'secondarySuccessMessage',
      'additionalSuccessMessage',
      'vaultPageIntroduction',
      'postsPageIntroduction',
      'privacyPolicy',
    ]) {
      expect(artist[text], text).toMatch(/\w{3,}/);
    }
    expect(artist.subscriptionPerks.length).toBeGreaterThanOrEqual(3);
    expect(artist.successImages).toEqual([
      { imagePath: '/images/seed/novaricci/success-1.svg', altText: expect.stringMatching(/\w/) },
      { imagePath: '/images/seed/novaricci/success-2.svg', altText: expect.stringMatching(/\w/) },
    ]);
  });

  it('the seeded images exist under public/', async () => {
    const fs = await import('node:fs');
    const artist = (await call(t.url, 'GET', '/performers/thelatenights')).body.data;
    const paths = [
      artist.avatar,
      artist.cover,
      artist.heroImage,
      artist.headlineImage,
      ...artist.successImages.map((i: { imagePath: string }) => i.imagePath),
    ];
    for (const image of paths) {
      const file = `public${image}`;
      expect(fs.existsSync(file), file).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*viewBox=/);
    }
  });

  it('finds an artist whatever the case, and answers 404 for an unknown username or a fan', async () => {
    expect((await call(t.url, 'GET', '/performers/NovaRicci')).body.data.username).toBe('novaricci');
    const unknown = await call(t.url, 'GET', '/performers/nosuchartist');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 404, message: 'Artist not found' });
    expect((await call(t.url, 'GET', `/performers/${DEMO_FAN.username}`)).status).toBe(404);
  });

  it('answers yearlyPrice in major units, 0 for a free artist, and counts active subscribers', async () => {
    const free = (await call(t.url, 'GET', '/performers/juniperlane')).body.data;
    expect(free.yearlyPrice).toBe(0);
    expect(free.stats.subscribers).toBe(1);
    expect((await call(t.url, 'GET', '/performers/thelatenights')).body.data).toMatchObject({
      yearlyPrice: 29.99,
      stats: { subscribers: 1 },
    });
  });

  it('tells a signed-in viewer whether they subscribe; a bad token reads as anonymous', async () => {
    const subscribed = await call(t.url, 'GET', '/performers/thelatenights', { token: demoFanToken });
    expect(subscribed.body.data.isSubscribed).toBe(true);
    const notSubscribed = await call(t.url, 'GET', '/performers/novaricci', { token: demoFanToken });
    expect(notSubscribed.body.data.isSubscribed).toBe(false);
    const badToken = await call(t.url, 'GET', '/performers/thelatenights', { token: 'not-a-token' });
    expect(badToken.status).toBe(200);
    expect(badToken.body.data.isSubscribed).toBe(false);
  });

  it('a lapsed subscription neither counts nor gives isSubscribed', async () => {
    const [fan, artistUser] = await Promise.all([registerFan(t), registerFan(t, 'artist')]);
    await makeArtist(t, artistUser, { yearlyPriceCents: 999 });
    await subscribe(t, fan.id, artistUser.id);
    const before = (await call(t.url, 'GET', `/performers/${artistUser.username}`, { token: fan.token })).body.data;
    expect(before).toMatchObject({ isSubscribed: true, stats: { subscribers: 1 }, yearlyPrice: 9.99 });
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [fan.id]);
    const after = (await call(t.url, 'GET', `/performers/${artistUser.username}`, { token: fan.token })).body.data;
    expect(after).toMatchObject({ isSubscribed: false, stats: { subscribers: 0 } });
  });

  it('GET /performers/user/search filters by name or username, pages with offset and limit, and counts the total', async () => {
    const all = await call(t.url, 'GET', '/performers/user/search');
    expect(all.status).toBe(200);
    const everyone = all.body.data.data as { username: string; name: string }[];
    expect(all.body.data.total).toBe(everyone.length);
    expect(everyone.map((a) => a.username)).toEqual(expect.arrayContaining(['juniperlane', 'novaricci', 'thelatenights']));
    // Ordered by name.
    const names = everyone.map((a) => a.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const byName = await call(t.url, 'GET', '/performers/user/search', { query: { q: 'late NIGHTS' } });
    expect(byName.body.data).toEqual({ data: [expect.objectContaining({ username: 'thelatenights' })], total: 1 });
    const byUsername = await call(t.url, 'GET', '/performers/user/search', { query: { q: 'juniperl' } });
    expect(byUsername.body.data.data.map((a: { username: string }) => a.username)).toEqual(['juniperlane']);
    // LIKE wildcards in q are taken literally.
    expect((await call(t.url, 'GET', '/performers/user/search', { query: { q: '%' } })).body.data).toEqual({ data: [], total: 0 });

    const page = await call(t.url, 'GET', '/performers/user/search', { query: { offset: 1, limit: 1 } });
    expect(page.body.data.data).toHaveLength(1);
    expect(page.body.data.data[0].username).toBe(everyone[1].username);
    expect(page.body.data.total).toBe(everyone.length);
    expect(Object.keys(page.body.data.data[0]).sort()).toEqual(ARTIST_FIELDS);
  });

  it('GET /performers/user/search refuses a bad offset or limit with 400', async () => {
    for (const query of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { limit: 'many' }] as Record<string, string | number>[]) {
      const answer = await call(t.url, 'GET', '/performers/user/search', { query });
      expect(answer.status, JSON.stringify(query)).toBe(400);
    }
  });

  it('GET /performers/user/search shows a signed-in viewer which artists they subscribe to', async () => {
    const answer = await call(t.url, 'GET', '/performers/user/search', { token: demoFanToken, query: { limit: 100 } });
    const subscribed = answer.body.data.data
      .filter((a: { isSubscribed: boolean }) => a.isSubscribed)
      .map((a: { username: string }) => a.username);
    expect(subscribed.sort()).toEqual(['juniperlane', 'thelatenights']);
  });

  it('GET /performers/user/search shows at once a new artist, a renamed one in its new place, and who subscribes', async () => {
    const search = async (q: string, token?: string) =>
      (
        await call<{ data: { username: string; name: string; isSubscribed: boolean }[]; total: number }>(
          t.url,
          'GET',
          '/performers/user/search',
          {
            token,
            query: { q, limit: 100 },
          },
        )
      ).body.data;
    expect((await search('Zephyr')).total).toBe(0);
    // Made through the api (the admin endpoint is the CLI's way; the registration form makes fans), after the list was read.
    const fan = await registerFan(t, 'zephyrfan');
    const made = await call<{ id: string }>(t.url, 'POST', '/admin/artists', {
      headers: { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN },
      body: { username: 'zephyrband', email: 'zephyr@example.com', password: DEMO_ARTIST_PASSWORD, name: 'Zephyr Band', yearlyPrice: 10 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await search('Zephyr')).data.map((a) => a.username)).toEqual(['zephyrband']);
    expect((await search('Zephyr', fan.token)).data[0]?.isSubscribed).toBe(false);
    await subscribe(t, fan.id, made.body.data.id);
    expect((await search('Zephyr', fan.token)).data[0]?.isSubscribed).toBe(true);

    // Renamed through the profile form: found by the new name, in its new place A to Z, and no longer by the old.
    const artistToken = (await login(t, 'zephyr@example.com', DEMO_ARTIST_PASSWORD)).body.data.token;
    // Both pages read (and kept) before the rename.
    expect((await search('')).data[0]?.username).not.toBe('zephyrband');
    expect((await search('Zephyr Band')).total).toBe(1);
    const renamed = await call(t.url, 'PUT', '/performers/me', { token: artistToken, body: { name: 'Aardvark Zephyr', yearlyPrice: 10 } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await search('')).data[0]).toMatchObject({ username: 'zephyrband', name: 'Aardvark Zephyr' });
    expect((await search('Zephyr Band')).total).toBe(0);
  });

  it('GET /subscriptions/user/search answers an empty list, then the fan’s subscription with its artist', async () => {
    const fan = await registerFan(t);
    const query = { limit: Number.MAX_SAFE_INTEGER };
    const empty = await call(t.url, 'GET', '/subscriptions/user/search', { token: fan.token, query });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ status: 0, data: { data: [], total: 0 } });

    const [{ id: artistId }] = await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'novaricci'`);
    await subscribe(t, fan.id, artistId);
    const one = await call(t.url, 'GET', '/subscriptions/user/search', { token: fan.token, query });
    expect(one.body.data.total).toBe(1);
    expect(one.body.data.data).toEqual([
      { _id: expect.any(String), performerInfo: expect.objectContaining({ _id: artistId, username: 'novaricci', isSubscribed: true }) },
    ]);
    expect(Object.keys(one.body.data.data[0].performerInfo).sort()).toEqual(ARTIST_FIELDS);
  });

  it('GET /subscriptions/user/search lists the demo fan’s two, pages them, and needs a session', async () => {
    const both = await call(t.url, 'GET', '/subscriptions/user/search', { token: demoFanToken, query: { limit: Number.MAX_SAFE_INTEGER } });
    expect(both.body.data.total).toBe(2);
    expect(both.body.data.data.map((s: { performerInfo: { username: string } }) => s.performerInfo.username).sort()).toEqual([
      'juniperlane',
      'thelatenights',
    ]);
    const first = await call(t.url, 'GET', '/subscriptions/user/search', { token: demoFanToken, query: { limit: 1 } });
    expect(first.body.data.data).toHaveLength(1);
    expect(first.body.data.total).toBe(2);
    const second = await call(t.url, 'GET', '/subscriptions/user/search', { token: demoFanToken, query: { limit: 1, offset: 1 } });
    expect(second.body.data.data.map((s: { _id: string }) => s._id)).not.toEqual(first.body.data.data.map((s: { _id: string }) => s._id));
    expect(second.body.data.total).toBe(2);
    // Past the last page: nothing, and still how many there are.
    const past = await call(t.url, 'GET', '/subscriptions/user/search', { token: demoFanToken, query: { limit: 1, offset: 5 } });
    expect(past.body.data).toEqual({ data: [], total: 2 });
    expect((await call(t.url, 'GET', '/subscriptions/user/search')).status).toBe(401);
  });

  it('running the seed again changes nothing', async () => {
    const count = async () =>
      (await t.db.query<{ n: number }>('SELECT (SELECT count(*) FROM users)::int + (SELECT count(*) FROM subscriptions)::int AS n'))[0].n;
    const before = await count();
    const summary = await seed(t.db);
    expect(summary.created).toEqual([]);
    expect(summary.existing.sort()).toEqual(['demofan', 'juniperlane', 'novaricci', 'thelatenights']);
    expect(await count()).toBe(before);
  });

  describe('realtime', () => {
    const sockets: Socket[] = [];
    const open = (token?: string) => {
      const socket = connectSocket(t.url, {
        query: token ? { token } : {},
        transports: ['websocket', 'polling'],
        reconnection: false,
        forceNew: true,
      });
      sockets.push(socket);
      return socket;
    };
    afterEach(() => {
      for (const socket of sockets.splice(0)) socket.disconnect();
    });

    it('connects with ?token=, and acks auth/login with a valid token', async () => {
      const fan = await registerFan(t);
      const socket = open(fan.token);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      expect(await socket.timeout(5000).emitWithAck('auth/login', fan.token)).toEqual({ ok: true });
    });

    it('refuses a connection without a token or with an unknown one', async () => {
      for (const token of [undefined, 'not-a-token']) {
        const error = await new Promise<Error>((resolve, reject) => {
          const socket = open(token);
          socket.once('connect', () => reject(new Error('connected without a valid token')));
          socket.once('connect_error', resolve);
        });
        expect(error.message).toBe('unauthorized');
      }
    });
  });
});
