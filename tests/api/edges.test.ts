import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUnsubscribeSecret, unsubscribeToken } from '../../api/notifications/unsubscribe';
import { makeArtist, registerFan, startTestApi, type TestApi } from '../helpers/api';

/**
 * The api's edges towards other sites: which pages may call it from the browser (CORS), and that none of its own
 * pages can be framed by another site.
 */
const WEB = 'http://web.test';
const SECOND_NAME = 'https://www.fans.example';
const FOREIGN = 'https://evil.example';

let t: TestApi;

beforeAll(async () => {
  t = await startTestApi({ env: { PUBLIC_WEB_URL: `${WEB}/`, EXTRA_WEB_ORIGINS: `${SECOND_NAME}/some/path` } });
});
afterAll(async () => {
  await t?.close();
});

const preflight = (path: string, origin: string, method = 'POST') =>
  fetch(`${t.url}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization,content-type' },
  });

describe('CORS: the web app calls the api with a bearer token, no other site and no credentials mode', () => {
  it('answers a preflight from the web app and from EXTRA_WEB_ORIGINS, without allowing credentials', async () => {
    for (const origin of [WEB, SECOND_NAME]) {
      for (const path of ['/messages/some-id', '/uploads', '/users/me']) {
        const answer = await preflight(path, origin, path === '/messages/some-id' ? 'DELETE' : 'POST');
        expect(answer.status, `${origin} ${path}`).toBe(204);
        expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
        expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
        expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
      }
    }
  });

  it('gives a foreign origin no preflight allowance and no reflected origin', async () => {
    for (const path of ['/messages/some-id', '/uploads', '/users/me']) {
      const answer = await preflight(path, FOREIGN);
      expect(answer.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('lets a simple request from the web app read its answer, and a foreign page not', async () => {
    const fan = await registerFan(t);
    const read = (origin: string) => fetch(`${t.url}/users/me`, { headers: { Origin: origin, authorization: `Bearer ${fan.token}` } });
    const mine = await read(WEB);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(mine.headers.get('access-control-allow-credentials')).toBeNull();
    expect(mine.headers.get('vary')).toMatch(/Origin/);
    const theirs = await read(FOREIGN);
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull();
    expect(theirs.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('the realtime socket and resumable uploads answer the web app only, without credentials', async () => {
    const fan = await registerFan(t);
    await makeArtist(t, fan);
    const handshake = (origin: string) => fetch(`${t.url}/socket.io/?EIO=4&transport=polling`, { headers: { Origin: origin } });
    const fromWeb = await handshake(WEB);
    expect(fromWeb.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(fromWeb.headers.get('access-control-allow-credentials')).toBeNull();
    const fromElsewhere = await handshake(FOREIGN);
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
    expect(fromElsewhere.headers.get('access-control-allow-credentials')).toBeNull();

    const upload = (origin: string) =>
      fetch(`${t.url}/uploads`, {
        method: 'POST',
        headers: {
          Origin: origin,
          authorization: `Bearer ${fan.token}`,
          'tus-resumable': '1.0.0',
          'upload-length': '10',
          'upload-metadata': `filename ${Buffer.from('a.mp3').toString('base64')},kind ${Buffer.from('audio').toString('base64')}`,
        },
      });
    const mine = await upload(WEB);
    expect(mine.status).toBe(201);
    expect(mine.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(mine.headers.get('access-control-allow-credentials')).toBeNull();
    const theirs = await upload(FOREIGN);
    expect(theirs.headers.get('access-control-allow-origin')).not.toBe(FOREIGN);
    expect(theirs.headers.get('access-control-allow-origin')).not.toBe('*');
    expect(theirs.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('framing: no page of the api can be shown inside another site', () => {
  it('the one-click unsubscribe page, shown and after its button, says frame-ancestors none and X-Frame-Options DENY', async () => {
    const fan = await registerFan(t);
    const artist = await registerFan(t, 'framed');
    await makeArtist(t, artist);
    const token = unsubscribeToken(await loadUnsubscribeSecret(t.db), fan.id, artist.id);
    const url = `${t.url}/notifications/unsubscribe?token=${encodeURIComponent(token)}`;
    const shown = await fetch(url, { headers: { accept: 'text/html' } });
    const done = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'x=1' });
    for (const page of [shown, done]) {
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      const policy = page.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(policy.split(';').map((d) => [d.trim().split(/\s+/)[0], d.trim().split(/\s+/).slice(1)]));
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['default-src']).toEqual(["'none'"]);
      expect(directives['form-action']).toEqual(["'self'"]);
    }
  });
});
