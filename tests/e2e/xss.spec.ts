import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiBase, logIn, registerFan, signIn } from './helpers';

/**
 * Hostile text: an XSS corpus goes in through every place a person can write — a post's title and
 * rich-text caption (the artist), comments and messages (a fan) — and the pages that show it are opened in
 * Chromium. No script may run: no dialog, no flag set on window, no element with an event handler or a
 * javascript: link inside the rendered text.
 */
const ARTIST = { username: 'juniperlane', email: 'juniper@stagedoor.test', password: 'Stagedoor-artist-2026!' };

const PAYLOADS = [
  '<script>window.__xss = "script"</script>',
  '<img src=x onerror="window.__xss=\'img\'">',
  '<svg onload="window.__xss=\'svg\'"></svg>',
  '<a href="javascript:window.__xss=\'href\'">tap me</a>',
  '<a href="  JaVaScRiPt:window.__xss=\'href2\'">tap me too</a>',
  '"><script>window.__xss="attr"</script>',
  '<iframe srcdoc="<script>parent.__xss=\'iframe\'</script>"></iframe>',
  '<details open ontoggle="window.__xss=\'details\'">x</details>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'mxss\'">',
  '<p style="background:url(javascript:window.__xss=\'css\')">styled</p>',
  '<body onload="window.__xss=\'body\'">',
  '{{constructor.constructor("window.__xss=\'template\'")()}}',
];

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, tokenValue: string, data?: unknown) {
  const answer = await request.fetch(`${apiBase}${path}`, { method, data, headers: { Authorization: `Bearer ${tokenValue}` } });
  expect(answer.status(), `${method} ${path}: ${await answer.text()}`).toBeLessThan(300);
  return ((await answer.json()) as { data: T }).data;
}

async function expectNoScriptRan(page: Page, dialogs: string[]) {
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss ?? null)).toBeNull();
  expect(dialogs).toEqual([]);
  const dangerous = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter(
        (el) =>
          [...el.attributes].some((a) => /^on/i.test(a.name)) ||
          /^\s*javascript:/i.test(el.getAttribute('href') ?? '') ||
          ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED'].includes(el.tagName),
      )
      .filter((el) => !(el.tagName === 'SCRIPT' && el.hasAttribute('nonce')))
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(dangerous).toEqual([]);
}

test('the XSS corpus in titles, captions, comments and messages runs no script on any page', async ({ page, request }) => {
  const artistToken = await logIn(request, ARTIST.email, ARTIST.password);
  const fan = await registerFan(request);
  const artist = await api<{ _id: string }>(request, 'GET', `/performers/${ARTIST.username}`, fan.token);
  await api(request, 'POST', '/payment/subscribe/performers', fan.token, { type: 'free', performerId: artist._id });

  const post = await api<{ _id: string }>(request, 'POST', '/content', artistToken, {
    title: '<img src=x onerror="window.__xss=\'title\'"> Setlist',
    content: PAYLOADS.join('\n'),
    tags: 'post',
  });
  for (const text of PAYLOADS.slice(0, 6)) await api(request, 'POST', `/content/${post._id}/comments`, fan.token, { text });
  const conversation = await api<{ _id: string }>(request, 'POST', '/conversations', fan.token, {
    source: 'performer',
    sourceId: artist._id,
  });
  for (const text of PAYLOADS.slice(0, 8)) {
    await api(request, 'POST', `/messages/conversations/${conversation._id}`, fan.token, { text, fileIds: [], type: 'text' });
  }

  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page.context(), fan.token);

  await page.goto(`/${ARTIST.username}/vault/${post._id}?type=post&from=posts`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Setlist');
  // The title shows as text, not as an image.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('<img src=x');
  // The links' text stays; their javascript: targets are gone (no link is left to follow).
  await expect(page.getByRole('article')).toContainText('tap me tap me too');
  await expect(page.getByRole('article').getByRole('link', { name: /tap me/ })).toHaveCount(0);
  // Comments are text too.
  await expect(page.getByText('<script>window.__xss = "script"</script>').first()).toBeVisible();
  await expectNoScriptRan(page, dialogs);

  for (const path of [`/${ARTIST.username}`, `/${ARTIST.username}/posts`]) {
    await page.goto(path);
    await expectNoScriptRan(page, dialogs);
  }
  await page.goto(`/${ARTIST.username}/account/messages/${conversation._id}?username=${ARTIST.username}`);
  await expect(page.getByTestId('message')).toHaveCount(8);
  await expect(page.getByTestId('message').filter({ hasText: '<svg onload' })).toHaveCount(1);
  await expectNoScriptRan(page, dialogs);

  // The artist's side: the inbox and the conversation with the fan.
  await page.context().clearCookies();
  await signIn(page.context(), artistToken);
  await page.goto(`/${ARTIST.username}/account/messages`);
  await expectNoScriptRan(page, dialogs);
  await page.goto(`/${ARTIST.username}/account/messages/${conversation._id}?username=${fan.username}`);
  await expect(page.getByTestId('message')).toHaveCount(8);
  await expectNoScriptRan(page, dialogs);
});
