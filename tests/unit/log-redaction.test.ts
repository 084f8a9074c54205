import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '#contract/log-redaction';

/** Secrets never reach a log line (docs/security.md, finding 8): one redaction, applied by both tiers where they write. */
describe('redactSecrets', () => {
  it('redacts the secret query parameters of a URL and keeps the rest', () => {
    expect(redactSecrets('/auth/password-change?token=9f8e7d6c5b4a&artist=nova')).toBe(
      `/auth/password-change?token=${REDACTED}&artist=nova`,
    );
    expect(redactSecrets('/media/7c1b?size=thumb&expires=1767225600&sig=AbC-_xyz')).toBe(
      `/media/7c1b?size=thumb&expires=1767225600&sig=${REDACTED}`,
    );
    expect(redactSecrets('/payment/test-gateway/authenticate/7c1b?secret=s3cr3t')).toBe(
      `/payment/test-gateway/authenticate/7c1b?secret=${REDACTED}`,
    );
    expect(redactSecrets('/payment/promo-codes/check?performerId=a1&code=HALF')).toBe(
      `/payment/promo-codes/check?performerId=a1&code=${REDACTED}`,
    );
    expect(redactSecrets('/nova/subscribe/payment?promo=HALF')).toBe(`/nova/subscribe/payment?promo=${REDACTED}`);
    expect(redactSecrets('/socket.io/?EIO=4&transport=polling&token=abc')).toBe(`/socket.io/?EIO=4&transport=polling&token=${REDACTED}`);
    expect(redactSecrets('/nova/subscribe/confirm?payment=p1&payment_intent_client_secret=pi_1_secret_2&redirect_status=ok')).toBe(
      `/nova/subscribe/confirm?payment=p1&payment_intent_client_secret=${REDACTED}&redirect_status=ok`,
    );
  });

  it('redacts a secret percent-encoded inside another parameter', () => {
    expect(redactSecrets('/logout?next=%2Fpassword%2Freset%3Ftoken%3Dabc123%26artist%3Dnova')).toBe(
      `/logout?next=%2Fpassword%2Freset%3Ftoken%3D${REDACTED}%26artist%3Dnova`,
    );
  });

  it('leaves parameters that only resemble a secret', () => {
    const plain = '/nova/vault?sort=asc&zipcode=12345&tokens=3&codeword=x&types=demo';
    expect(redactSecrets(plain)).toBe(plain);
  });

  it('redacts credentials and the headers that carry them, keeping a JSON line valid', () => {
    const line = JSON.stringify({
      level: 30,
      url: '/auth/password-change?token=abc',
      headers: { authorization: 'Bearer 0123456789abcdef', cookie: 'stagedoor=tok; stagedoor-lite=on', 'x-stagedoor-admin-token': 'admin' },
      msg: 'request failed',
    });
    const redacted = redactSecrets(line);
    for (const secret of ['0123456789abcdef', 'tok;', 'admin"', 'token=abc']) expect(redacted).not.toContain(secret);
    expect(JSON.parse(redacted)).toEqual({
      level: 30,
      url: `/auth/password-change?token=${REDACTED}`,
      headers: { authorization: REDACTED, cookie: REDACTED, 'x-stagedoor-admin-token': REDACTED },
      msg: 'request failed',
    });
  });

  it('no secret value survives, wherever it sits in a URL and however the line around it is written', { timeout: 60_000 }, () => {
    const secretValue = fc.stringMatching(/^[A-Za-z0-9_~.+/=-]{6,40}$/);
    const name = fc.constantFrom(
      'token',
      'sig',
      'secret',
      'code',
      'promo',
      'password',
      'key',
      'access_token',
      'payment_intent_client_secret',
    );
    const before = fc.constantFrom('', 'sort=asc&', 'artist=nova&', 'expires=1767225600&');
    const after = fc.constantFrom('', '&artist=nova', '#latest', '&x=1&y=2');
    const wrap = fc.constantFrom(
      (url: string) => url,
      (url: string) => JSON.stringify({ level: 50, url, msg: 'request failed' }),
      (url: string) => `GET ${url} HTTP/1.1`,
      (url: string) => `/logout?next=${encodeURIComponent(url)}`,
    );
    fc.assert(
      fc.property(secretValue, name, before, after, wrap, (value, key, head, tail, write) => {
        const line = write(`/some/path?${head}${key}=${encodeURIComponent(value)}${tail}`);
        const redacted = redactSecrets(line);
        expect(redacted, line).not.toContain(encodeURIComponent(value));
        expect(redacted, line).not.toContain(encodeURIComponent(encodeURIComponent(value)));
      }),
      { numRuns: 1000 },
    );
  });

  it('redacts a gift link, whose path segment is the secret, and keeps the gift pages that hold none', () => {
    expect(redactSecrets('/gifts/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5/redeem')).toBe(`/gifts/${REDACTED}/redeem`);
    expect(redactSecrets('{"url":"/gifts/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5","statusCode":404}')).toBe(
      `{"url":"/gifts/${REDACTED}","statusCode":404}`,
    );
    expect(redactSecrets('open it: https://app.stagedoor.fm/gift/Zm9vYmFy-_baz?from=mail\n')).toBe(
      `open it: https://app.stagedoor.fm/gift/${REDACTED}?from=mail\n`,
    );
    expect(redactSecrets('/logout?next=%2Fgift%2FZm9vYmFy%3Fa%3D1')).toBe(`/logout?next=%2Fgift%2F${REDACTED}%3Fa%3D1`);
    for (const plain of ['/gifts/bought/7c1b9a2e-0000-4000-8000-000000000000', '/nova/gift/sent', '/nova/gift?to=a', '/gifts']) {
      expect(redactSecrets(plain)).toBe(plain);
    }
  });

  it('no gift token survives, however its link is written', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9_-]{20,64}$/);
    const path = fc.constantFrom(
      (value: string) => `/gifts/${value}`,
      (value: string) => `/gifts/${value}/redeem`,
      (value: string) => `https://app.stagedoor.fm/gift/${value}`,
      (value: string) => `/gift/${value}?ref=mail`,
    );
    const wrap = fc.constantFrom(
      (url: string) => url,
      (url: string) => JSON.stringify({ level: 30, url, msg: 'request' }),
      (url: string) => `POST ${url} HTTP/1.1`,
      (url: string) => `/logout?next=${encodeURIComponent(url)}`,
      (url: string) => `/logout?next=${encodeURIComponent(`/login?next=${encodeURIComponent(url)}`)}`,
    );
    fc.assert(
      fc.property(token, path, wrap, (value, at, write) => {
        const line = write(at(value));
        expect(redactSecrets(line), line).not.toContain(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('redacts header lines and schemes in plain text, as an error message or a mail in the log may hold them', () => {
    expect(redactSecrets('GET /users/me\r\nAuthorization: Bearer abc.def\r\nCookie: stagedoor=xyz\r\nAccept: */*')).toBe(
      `GET /users/me\r\nAuthorization: ${REDACTED}\r\nCookie: ${REDACTED}\r\nAccept: */*`,
    );
    expect(redactSecrets('fetch failed with Bearer abc.def-ghi')).toBe(`fetch failed with Bearer ${REDACTED}`);
    const mail = 'open this link within one hour:\n\nhttps://app.stagedoor.fm/password/reset?token=Zm9vYmFy&artist=nova\n';
    expect(redactSecrets(mail)).toBe(
      `open this link within one hour:\n\nhttps://app.stagedoor.fm/password/reset?token=${REDACTED}&artist=nova\n`,
    );
  });
});
