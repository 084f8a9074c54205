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
