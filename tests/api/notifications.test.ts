import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatScheduleDate, formatScheduleTime } from '#contract/content-rules';
import { queues } from '../../api/jobs/queues';
import { systemResolve, type Resolve } from '../../api/notifications/push-endpoint';
import { PUSH_SUBSCRIPTIONS_PER_FAN } from '../../api/notifications/routes';
import { call, describeEachDatabase, startTestApi, type TestApi } from '../helpers/api';
import { startPushService, startSmtp, type TestPushService, type TestSmtp } from '../helpers/notify';
import { createArtist, createFan, subscribe, type ContentUser } from './content-fixtures';
import { connectClient, connected, recordEvents } from './messages-fixtures';

/**
 * New-post notifications (docs/notifications.md), through a real SMTP server, a push service that decrypts what it gets, and
 * the fan's socket: "the item became visible" is one event, and each fan who may see it is told as they chose.
 */

let t: TestApi;
let smtp: TestSmtp;
let push: TestPushService;
const sockets: ReturnType<typeof connectClient>[] = [];

const email = (user: ContentUser) => `${user.username}@example.com`;

async function publish(artist: ContentUser, body: Record<string, unknown> = {}) {
  const answer = await call(t.url, 'POST', '/content', {
    token: artist.token,
    body: { title: 'Studio night', content: '<p>Three new songs <b>tonight</b>.</p>', tags: 'post', ...body },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data as { _id: string; publishAt: string };
}

async function club(fans = 1) {
  const artist = await createArtist(t);
  const members = await Promise.all(Array.from({ length: fans }, () => createFan(t)));
  for (const fan of members) await subscribe(t, fan, artist);
  return { artist, members };
}

const settle = (ms = 1500) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * DNS as the api sees it in these tests: the names below answer what the map says (a test changes an answer, as a
 * DNS record changes); any other name is resolved by the system (localhost, on this machine, without the internet).
 */
const names = new Map<string, string[]>([
  ['push.fans.example', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']],
  ['rebind.fans.example', ['93.184.216.35']],
  ['metadata.fans.example', ['169.254.169.254']],
  ['intranet.fans.example', ['10.0.0.7']],
  ['mapped.fans.example', ['::ffff:192.168.1.20']],
  ['unique-local.fans.example', ['fd12:3456::1']],
  ['half-private.fans.example', ['93.184.216.36', '172.16.4.4']],
]);
const lookups: string[] = [];
const resolveHost: Resolve = async (host) => {
  lookups.push(host);
  const known = names.get(host);
  if (!known) return host.endsWith('.example') ? [] : systemResolve(host);
  return known.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const logLines: string[] = [];

describeEachDatabase('new-post notifications', (database) => {
  beforeAll(async () => {
    [smtp, push] = await Promise.all([startSmtp(), startPushService()]);
    // Two fans a batch, so a club of a few fans already fans out over several jobs.
    t = await startTestApi({
      database: database.name,
      // The stand-in push service listens on loopback: the one host let through although it is not public.
      env: {
        SMTP_URL: smtp.url,
        NOTIFY_BATCH_SIZE: '2',
        PUBLIC_WEB_URL: 'https://fans.example',
        PUSH_ALLOW_HOSTS: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      resolveHost,
      logStream: { write: (line) => logLines.push(line) },
    });
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await t?.close();
    await Promise.all([smtp?.close(), push?.close()]);
  });

  it('a published post reaches each subscribed fan by mail, push and the live bell; no one else, and never a draft', async () => {
    const { artist, members } = await club(5);
    const [fan] = members;
    const stranger = await createFan(t);
    const lapsed = await createFan(t);
    await subscribe(t, lapsed, artist);
    await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [lapsed.id]);
    const browser = push.subscription();
    expect((await call(t.url, 'POST', '/notifications/push/subscriptions', { token: fan.token, body: browser })).status).toBe(201);
    const socket = connectClient(t.url, fan.token);
    sockets.push(socket);
    const events = recordEvents(socket);
    await connected(socket);
    await events.waitFor('notifications/unread-total', (p) => p.total === 0);

    await publish(artist, { title: 'Not yet', draft: true });
    await settle();
    expect(smtp.to(email(fan))).toEqual([]);
    expect((await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.total).toBe(0);

    const item = await publish(artist);
    const [mail] = await smtp.waitFor(email(fan));
    expect(mail.parsed.subject).toBe(`${artist.username}: Studio night`);
    const unsubscribe = /^List-Unsubscribe: <(https?:\/\/[^>]+)>$/.exec(mail.header('List-Unsubscribe') ?? '')?.[1];
    expect(unsubscribe).toMatch(/\/notifications\/unsubscribe\?token=/);
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // Both parts: the post, where to open it, and a visible unsubscribe link that needs no login.
    expect(mail.parsed.html).toContain('Studio night');
    expect(mail.parsed.html).toContain(`https://fans.example/${artist.username}/vault/${item._id}?type=post&amp;from=home`);
    expect(mail.parsed.html).toContain(unsubscribe!.replace(/&/g, '&amp;'));
    expect(mail.parsed.text).toContain('Three new songs tonight.');
    expect(mail.parsed.text).toContain(unsubscribe);

    const [delivered] = await push.waitFor(browser.endpoint);
    expect(delivered.payload).toMatchObject({
      title: `${artist.username}: Studio night`,
      body: 'Three new songs tonight.',
      tag: `item-${item._id}`,
    });
    expect(delivered.payload.url).toBe(`https://fans.example/${artist.username}/vault/${item._id}?type=post&from=home`);
    const vapid = (await call(t.url, 'GET', '/notifications/push/key')).body.data.publicKey;
    expect(delivered.authorization).toMatch(new RegExp(`^vapid t=.+, k=${vapid}$`));

    const live = await events.waitFor('notifications/new');
    expect(live.notification).toMatchObject({ item: { _id: item._id, title: 'Studio night' }, read: false });
    await events.waitFor('notifications/unread-total', (p) => p.total === 1);
    const listed = await call(t.url, 'GET', '/notifications', { token: fan.token });
    expect(listed.body.data).toMatchObject({
      total: 1,
      unread: 1,
      data: [{ item: { _id: item._id }, performer: { username: artist.username }, read: false }],
    });

    // Every fan of the club, over three batches, told once.
    for (const member of members) expect(await smtp.waitFor(email(member))).toHaveLength(1);
    await settle();
    for (const other of [stranger, lapsed]) {
      expect(smtp.to(email(other))).toEqual([]);
      expect((await call(t.url, 'GET', '/notifications', { token: other.token })).body.data.total).toBe(0);
    }
    expect(smtp.to(email(fan))).toHaveLength(1);
    expect(push.pushes.filter((p) => p.endpoint === browser.endpoint)).toHaveLength(1);

    // Read one, then all: the bell follows live.
    const id = listed.body.data.data[0]._id;
    expect((await call(t.url, 'POST', `/notifications/${id}/read`, { token: fan.token })).body.data).toEqual({ success: true, unread: 0 });
    await events.waitFor('notifications/unread-total', (p) => p.total === 0);
    expect((await call(t.url, 'GET', '/notifications/unread-count', { token: fan.token })).body.data.total).toBe(0);
    expect((await call(t.url, 'POST', `/notifications/${id}/read`, { token: stranger.token })).status).toBe(404);
    expect((await call(t.url, 'POST', '/notifications/read-all', { token: fan.token })).body.data).toEqual({ success: true, unread: 0 });
  });

  it("the bell's count and list are kept in the read cache and follow every change: a post, a read, a draft, a rename, a deletion", async () => {
    const { artist, members } = await club(1);
    const [fan] = members;
    const count = async () => (await call(t.url, 'GET', '/notifications/unread-count', { token: fan.token })).body.data.total;
    type Listed = { total: number; unread: number; data: { read: boolean; item: { _id: string; title: string } }[] };
    const list = async () => (await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data as Listed;
    const until = async (total: number) => {
      for (let i = 0; i < 100 && (await count()) !== total; i++) await settle(50);
      return count();
    };
    expect(await count()).toBe(0);
    const first = await publish(artist, { title: 'First' });
    expect(await until(1)).toBe(1);
    const second = await publish(artist, { title: 'Second' });
    expect(await until(2)).toBe(2);
    // Asked again and again, it stays put (served from memory, not recounted).
    expect(await count()).toBe(2);

    // The artist makes one a draft again: it leaves the count; published once more, it is back.
    const edit = (body: Record<string, unknown>) =>
      call(t.url, 'PUT', `/content/${first._id}`, {
        token: artist.token,
        body: { title: 'First', content: '<p>x</p>', tags: 'post', ...body },
      });
    expect(await list()).toMatchObject({ total: 2, unread: 2 });
    expect((await edit({ draft: true })).status).toBe(200);
    expect(await count()).toBe(1);
    expect(await list()).toMatchObject({ total: 1, unread: 1 });
    expect((await edit({ title: 'First, again' })).status).toBe(200);
    expect(await count()).toBe(2);
    expect((await list()).data.map((n) => n.item.title)).toEqual(['Second', 'First, again']);

    const secondNotification = (await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.data.find(
      (n: { item: { _id: string } }) => n.item._id === second._id,
    )._id;
    await call(t.url, 'POST', `/notifications/${secondNotification}/read`, { token: fan.token });
    expect(await count()).toBe(1);
    expect((await list()).data.map((n) => n.read)).toEqual([true, false]);
    expect((await call(t.url, 'DELETE', `/content/${first._id}`, { token: artist.token })).status).toBe(200);
    expect(await count()).toBe(0);
    expect(await list()).toMatchObject({ total: 1, unread: 0 });
    await publish(artist, { title: 'Third' });
    expect(await until(1)).toBe(1);
    expect((await list()).data.map((n) => n.item.title)).toEqual(['Third', 'Second']);
    // The top bar asks both of its counts in one call.
    expect((await call(t.url, 'GET', '/users/me/unread', { token: fan.token })).body.data).toEqual({ messages: 0, notifications: 1 });
    await call(t.url, 'POST', '/notifications/read-all', { token: fan.token });
    expect(await count()).toBe(0);
    expect((await list()).data.map((n) => n.read)).toEqual([true, true]);
    expect((await call(t.url, 'GET', '/users/me/unread', { token: fan.token })).body.data).toEqual({ messages: 0, notifications: 0 });
  });

  it('one-click unsubscribe: GET shows what it will do, the POST a mail client sends stops the next mail', async () => {
    const { artist, members } = await club(2);
    const [fan, other] = members;
    await publish(artist, { title: 'First' });
    const [mail] = await smtp.waitFor(email(fan));
    const link = new URL(/<([^>]+)>/.exec(mail.header('List-Unsubscribe')!)![1]);
    const local = new URL(link.pathname + link.search, t.url);

    const shown = await call(t.url, 'GET', local.pathname + local.search);
    expect(shown.body.data).toEqual({
      email: email(fan),
      performer: { username: artist.username, name: artist.username },
      unsubscribed: false,
    });
    const page = await fetch(local, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('<button type="submit">Unsubscribe</button>');
    // Opening the link changes nothing (mail scanners follow links).
    await publish(artist, { title: 'Second' });
    await smtp.waitFor(email(fan), 2);

    // RFC 8058: the mail client POSTs List-Unsubscribe=One-Click to the link, without cookies.
    const oneClick = await fetch(local, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect((await call(t.url, 'GET', `/notifications/preferences/${artist.id}`, { token: fan.token })).body.data).toMatchObject({
      email: 'none',
      push: true,
      inApp: true,
    });

    await publish(artist, { title: 'Third' });
    await smtp.waitFor(email(other), 3);
    await settle();
    expect(smtp.to(email(fan)).map((m) => m.parsed.subject)).toEqual([`${artist.username}: First`, `${artist.username}: Second`]);
    // Still told in the app.
    expect((await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.total).toBe(3);

    expect(
      (await call(t.url, 'POST', '/notifications/unsubscribe', { query: { token: `${link.searchParams.get('token')}x` } })).status,
    ).toBe(400);
    expect((await call(t.url, 'GET', '/notifications/unsubscribe')).status).toBe(400);
  });

  it('a scheduled post notifies at its time, not before; a post moved back to draft never does', async () => {
    const { artist, members } = await club(1);
    const [fan] = members;
    // The schedule is to the minute: 12 minutes from now is at least 11 once the seconds are dropped, past the
    // 10-minute rule however long the calls take (11 failed when the clock stood at :59.9).
    const at = new Date(Date.now() + 12 * 60_000);
    const schedule = { enabled: true, date: formatScheduleDate(at), time: formatScheduleTime(at) };
    const scheduled = await publish(artist, { title: 'Tour dates', schedule });
    const withdrawn = await publish(artist, { title: 'Withdrawn', schedule });
    expect(
      (
        await call(t.url, 'PUT', `/content/${withdrawn._id}`, {
          token: artist.token,
          body: { title: 'Withdrawn', content: '<p>x</p>', tags: 'post', schedule, draft: true },
        })
      ).status,
    ).toBe(200);
    await settle();
    expect(smtp.to(email(fan))).toEqual([]);

    // The time arrives: the item and its job are moved into the past, as the clock would move.
    await t.db.query(`UPDATE content_items SET publish_at = publish_at - interval '13 minutes' WHERE id = ANY($1::text[])`, [
      [scheduled._id, withdrawn._id],
    ]);
    await t.db.query(
      `UPDATE ${t.config.jobs.schema}.job SET start_after = start_after - interval '13 minutes' WHERE name = 'content.visible' AND state = 'created'`,
    );
    const [mail] = await smtp.waitFor(email(fan));
    expect(mail.parsed.subject).toBe(`${artist.username}: Tour dates`);
    await settle();
    expect(smtp.to(email(fan))).toHaveLength(1);
  });

  it('per-artist choices: a daily digest instead of a mail per post, push off, and the bell off', async () => {
    const { artist, members } = await club(1);
    const [fan] = members;
    const browser = push.subscription();
    await call(t.url, 'POST', '/notifications/push/subscriptions', { token: fan.token, body: browser });
    const defaults = await call(t.url, 'GET', '/notifications/preferences', { token: fan.token });
    expect(defaults.body.data.data).toEqual([
      {
        performerId: artist.id,
        performer: { _id: artist.id, username: artist.username, name: artist.username, avatar: '' },
        email: 'each',
        push: true,
        inApp: true,
      },
    ]);
    const changed = await call(t.url, 'PUT', `/notifications/preferences/${artist.id}`, {
      token: fan.token,
      body: { email: 'digest', push: false },
    });
    expect(changed.body.data).toEqual({ performerId: artist.id, email: 'digest', push: false, inApp: true });

    await publish(artist, { title: 'Morning' });
    await publish(artist, { title: 'Evening' });
    await settle(2500);
    expect(smtp.to(email(fan))).toEqual([]);
    expect(push.pushes.filter((p) => p.endpoint === browser.endpoint)).toEqual([]);
    expect((await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.total).toBe(2);

    // The daily digest (its cron job, run now): one mail with both posts and its own one-click unsubscribe.
    await t.api.ctx.jobs.send(queues.notifyDigest, {});
    const [digest] = await smtp.waitFor(email(fan));
    expect(digest.parsed.subject).toBe(`${artist.username}: 2 new posts today`);
    expect(digest.parsed.text).toContain('Morning');
    expect(digest.parsed.text).toContain('Evening');
    expect(digest.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    await t.api.ctx.jobs.send(queues.notifyDigest, {});
    await settle();
    expect(smtp.to(email(fan))).toHaveLength(1);

    await call(t.url, 'PUT', `/notifications/preferences/${artist.id}`, { token: fan.token, body: { inApp: false } });
    await publish(artist, { title: 'Quiet' });
    await settle();
    expect((await call(t.url, 'GET', '/notifications', { token: fan.token })).body.data.total).toBe(2);
  });

  it('a push subscription the push service says is gone (410) is deleted', async () => {
    const { artist, members } = await club(1);
    const gone = push.subscription({ gone: true });
    await call(t.url, 'POST', '/notifications/push/subscriptions', { token: members[0].token, body: gone });
    await publish(artist);
    await smtp.waitFor(email(members[0]));
    for (let i = 0; i < 40; i++) {
      if (!(await t.db.query('SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [gone.endpoint])).length) break;
      await settle(100);
    }
    expect(await t.db.query('SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [gone.endpoint])).toEqual([]);
  });

  it('bad input is a clear 4xx', async () => {
    const { artist, members } = await club(1);
    const [fan] = members;
    const put = (body: unknown, id = artist.id) => call(t.url, 'PUT', `/notifications/preferences/${id}`, { token: fan.token, body });
    expect((await put({ email: 'hourly' })).status).toBe(400);
    expect((await put({ push: 'yes' })).status).toBe(400);
    expect((await put({ other: true })).status).toBe(400);
    expect((await put({ email: 'none' }, 'nobody')).status).toBe(404);
    // Reading the choices for someone who is not an artist (a fan, an unknown id, not an id at all) is a 404 too.
    const get = (id: string) => call(t.url, 'GET', `/notifications/preferences/${encodeURIComponent(id)}`, { token: fan.token });
    for (const id of [fan.id, 'nobody', 'not an id!']) expect((await get(id)).status, id).toBe(404);
    expect((await get(artist.id)).body.data).toEqual({ performerId: artist.id, email: 'each', push: true, inApp: true });
    const post = (body: unknown) => call(t.url, 'POST', '/notifications/push/subscriptions', { token: fan.token, body });
    expect((await post({ endpoint: 'http://push.example/x', keys: push.subscription().keys })).status).toBe(400);
    expect((await post({ endpoint: 'https://push.example/x', keys: { p256dh: 'short', auth: 'x' } })).status).toBe(400);
    expect((await post({})).status).toBe(400);
    expect(
      (
        await call(t.url, 'DELETE', '/notifications/push/subscriptions', {
          token: fan.token,
          body: { endpoint: 'https://push.example/none' },
        })
      ).status,
    ).toBe(404);
    expect((await call(t.url, 'GET', '/notifications', { token: fan.token, query: { limit: 0 } })).status).toBe(400);
    expect((await call(t.url, 'GET', '/notifications')).status).toBe(401);
  });

  it('push endpoints: only public push services by name on 443, a clear 422 for anything else', async () => {
    const { members } = await club(1);
    const [fan] = members;
    const keys = push.subscription().keys;
    const post = (endpoint: string) =>
      call(t.url, 'POST', '/notifications/push/subscriptions', { token: fan.token, body: { endpoint, keys } });
    const refused: [string, RegExp][] = [
      ['https://127.0.0.2/push/a', /not by an IP address/],
      ['https://2130706434/push/a', /not by an IP address/], // 127.0.0.2, written as one number
      ['https://169.254.169.254/latest/meta-data', /not by an IP address/],
      ['https://10.1.2.3/push/a', /not by an IP address/],
      ['https://[::1]/push/a', /not by an IP address/],
      ['https://[::ffff:127.0.0.1]/push/a', /not by an IP address/],
      ['https://[fe80::1]/push/a', /not by an IP address/],
      ['https://localhost/push/a', /resolves to a loopback, private or otherwise non-public address/],
      ['https://metadata.fans.example/push/a', /non-public address/],
      ['https://intranet.fans.example/push/a', /non-public address/],
      ['https://mapped.fans.example/push/a', /non-public address/],
      ['https://unique-local.fans.example/push/a', /non-public address/],
      ['https://half-private.fans.example/push/a', /non-public address/],
      ['https://push.fans.example:8443/push/a', /standard https port \(443\)/],
      ['https://nowhere.fans.example/push/a', /could not be found/],
    ];
    for (const [endpoint, message] of refused) {
      const answer = await post(endpoint);
      expect(answer.status, endpoint).toBe(422);
      expect(answer.body.message, endpoint).toMatch(message);
      expect(answer.body.errors?.endpoint?.[0], endpoint).toBe(answer.body.message);
    }
    expect(await t.db.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [fan.id])).toEqual([]);
    expect((await post('https://push.fans.example/push/a')).status).toBe(201);
    expect((await post('https://push.fans.example:443/push/b')).status).toBe(201);
  });

  it(`a fan keeps at most ${PUSH_SUBSCRIPTIONS_PER_FAN} browsers (a new one replaces the longest registered); an endpoint is one account's`, async () => {
    const { members } = await club(2);
    const [fan, other] = members;
    const register = (user: ContentUser, endpoint: string, keys = push.subscription().keys) =>
      call(t.url, 'POST', '/notifications/push/subscriptions', { token: user.token, body: { endpoint, keys } });
    const endpoints = Array.from({ length: PUSH_SUBSCRIPTIONS_PER_FAN + 2 }, (_, i) => `https://push.fans.example/push/${fan.id}-${i}`);
    for (const endpoint of endpoints.slice(0, PUSH_SUBSCRIPTIONS_PER_FAN)) expect((await register(fan, endpoint)).status).toBe(201);
    // The first browser registers again (a fan turning push back on there): it is now the most recent.
    expect((await register(fan, endpoints[0])).status).toBe(201);
    for (const endpoint of endpoints.slice(PUSH_SUBSCRIPTIONS_PER_FAN)) expect((await register(fan, endpoint)).status).toBe(201);
    const kept = async (user: ContentUser) =>
      (
        await t.db.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = $1 ORDER BY endpoint', [user.id])
      ).map((row) => row.endpoint);
    expect(await kept(fan)).toEqual([endpoints[0], ...endpoints.slice(3)].sort());

    // Another account cannot take a fan's endpoint over, nor forget it.
    const [before] = await t.db.query('SELECT user_id, p256dh, auth FROM push_subscriptions WHERE endpoint = $1', [endpoints[0]]);
    const taken = await register(other, endpoints[0]);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/registered to another account/);
    const forgotten = await call(t.url, 'DELETE', '/notifications/push/subscriptions', {
      token: other.token,
      body: { endpoint: endpoints[0] },
    });
    expect(forgotten.status).toBe(404);
    expect(await t.db.query('SELECT user_id, p256dh, auth FROM push_subscriptions WHERE endpoint = $1', [endpoints[0]])).toEqual([before]);
    expect(await kept(other)).toEqual([]);
    // Its owner still can.
    expect(
      (await call(t.url, 'DELETE', '/notifications/push/subscriptions', { token: fan.token, body: { endpoint: endpoints[0] } })).status,
    ).toBe(200);
  });

  it('at send time the name is resolved again: an endpoint that now resolves to loopback is not pushed to; failures are logged at warn', async () => {
    const { artist, members } = await club(1);
    const [fan] = members;
    const rebound = 'https://rebind.fans.example/push/rebound';
    const flaky = push.subscription({ failFirst: 1 });
    const secrets = [flaky.keys.p256dh, flaky.keys.auth, flaky.endpoint.split('/').pop()!];
    for (const body of [{ endpoint: rebound, keys: push.subscription().keys }, flaky])
      expect((await call(t.url, 'POST', '/notifications/push/subscriptions', { token: fan.token, body })).status).toBe(201);
    // The name's record changes after the fan registered it: it points at this machine now.
    names.set('rebind.fans.example', ['127.0.0.1']);
    lookups.length = 0;
    logLines.length = 0;

    await publish(artist, { title: 'Rebound' });
    await smtp.waitFor(email(fan));
    // The push service in trouble answers 500 once: said at warn, and the batch's retry delivers it.
    await push.waitFor(flaky.endpoint, 1, 40_000);
    expect(push.failed).toContain(flaky.endpoint);
    expect(lookups).toContain('rebind.fans.example');
    const warned = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.level === 40);
    expect(warned).toContainEqual(
      expect.objectContaining({
        msg: 'push: not sent, the endpoint no longer resolves to a public address',
        pushHost: 'rebind.fans.example',
      }),
    );
    expect(warned).toContainEqual(
      expect.objectContaining({ msg: 'push: delivery failed', pushHost: new URL(flaky.endpoint).host, statusCode: 500, userId: fan.id }),
    );
    for (const secret of secrets) expect(logLines.join('\n')).not.toContain(secret);
    // Not deleted: a DNS answer can be wrong for a while; when the name is public again, pushes go there again.
    expect(await t.db.query('SELECT 1 FROM push_subscriptions WHERE endpoint = $1', [rebound])).toHaveLength(1);
    names.set('rebind.fans.example', ['93.184.216.35']);
  });
});
