import express from 'express';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameSiteBounce } from '../../server/same-site-bounce';
import { listenLocal } from '../helpers/listen';

/**
 * The same-site bounce (docs/decisions/002) answers a cross-site navigation with a page that requests the same URL
 * again. It must never send the browser to another site (docs/security.md, finding 1): the path of the request is the
 * visitor's input, and `//evil.example/x` read as a URL is another host.
 */
describe('same-site bounce', () => {
  let web: Awaited<ReturnType<typeof listenLocal>>;
  beforeAll(async () => {
    const app = express();
    app.use(sameSiteBounce);
    app.get('*', (_req, res) => res.send('page'));
    web = await listenLocal(app);
  });
  afterAll(() => web?.close());

  /** The targets of the bounce page (its meta refresh and its link), as the browser resolves them. */
  async function bounce(path: string) {
    // node's http rather than fetch: fetch sets Sec-Fetch-Mode itself, as a script's request would have it.
    const html = await new Promise<string>((resolve, reject) => {
      const request = http.get(
        `${web.url}${path}`,
        { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' } },
        (response) => {
          let text = '';
          response
            .setEncoding('utf8')
            .on('data', (chunk: string) => (text += chunk))
            .on('end', () => resolve(text));
        },
      );
      request.on('error', reject);
    });
    const refresh = html.match(/content="0;url=([^"]*)"/)?.[1];
    const link = html.match(/<a href="([^"]*)"/)?.[1];
    expect(refresh, html).toBeDefined();
    const decode = (value: string) => value.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
    return [refresh!, link!].map((target) => new URL(decode(target), `${web.url}${path}`));
  }

  it('requests the same page again', async () => {
    for (const target of await bounce('/nova/vault?sort=asc')) expect(target.href).toBe(`${web.url}/nova/vault?sort=asc`);
  });

  it('never sends the browser to another site, whatever the path', async () => {
    for (const path of ['//evil.example/x', '/\\evil.example/x', '/%5Cevil.example', '/..//evil.example/x', '/.//evil.example']) {
      for (const target of await bounce(path)) expect(target.origin, path).toBe(web.url);
    }
  });
});
