import { expect, test } from '@playwright/test';
import { apiBase, expectNoA11yViolations, logIn, registerFan, signIn } from './helpers';

/** Issue 4: each fan's presale code is their own; the artist traces a leaked code to its fan and revokes it. */
test('the artist looks up a fan’s presale code and revokes it; the fan’s page then says so', async ({ browser, request }) => {
  const artistToken = await logIn(request, 'juniper@stagedoor.test', 'Stagedoor-artist-2026!');
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const created = await request.post(`${apiBase}/content`, {
    headers: auth(artistToken),
    data: {
      title: `Spring shows presale ${Date.now()}`,
      content: '<p>Members first.</p>',
      tags: 'ticketPresale',
      presale: { ticketUrl: 'https://tickets.example.com/juniper' },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const itemId = ((await created.json()) as { data: { _id: string } }).data._id;

  const fan = await registerFan(request);
  const artist = (
    (await (await request.get(`${apiBase}/performers/juniperlane`, { headers: auth(fan.token) })).json()) as { data: { _id: string } }
  ).data;
  await request.post(`${apiBase}/payment/subscribe/performers`, {
    headers: auth(fan.token),
    data: { type: 'free', performerId: artist._id },
  });

  const fanContext = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  await signIn(fanContext, fan.token);
  const fanPage = await fanContext.newPage();
  await fanPage.goto(`/juniperlane/vault/${itemId}?type=post&from=posts`);
  const code = (await fanPage.locator('#presale-title ~ dl code').textContent())!.trim();
  expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  // One tap copies it for the ticket site's form.
  await fanPage.getByRole('button', { name: 'Copy code' }).click();
  await expect(fanPage.getByRole('status').filter({ hasText: 'Presale code copied.' })).toBeAttached();
  expect(await fanPage.evaluate(() => navigator.clipboard.readText())).toBe(code);

  const artistContext = await browser.newContext({ javaScriptEnabled: false });
  await signIn(artistContext, artistToken);
  const page = await artistContext.newPage();
  await page.goto(`/juniperlane/vault/${itemId}?type=post&from=posts`);
  const codes = page.getByRole('region', { name: 'Presale codes' });
  await expect(codes).toContainText('1 code given out');
  await codes.getByLabel('Code').fill(code.toLowerCase());
  await codes.getByRole('button', { name: 'Look up' }).click();
  await expect(codes).toContainText(`matching ${code.toLowerCase()}`);
  await expect(codes.getByRole('listitem')).toHaveCount(1);
  await expect(codes.getByRole('listitem')).toContainText(`@${fan.username}`);
  await expectNoA11yViolations(page);
  await codes.getByRole('button', { name: `Revoke code ${code}` }).click();
  await expect(codes.getByRole('listitem')).toContainText('revoked');

  await fanPage.reload();
  await expect(fanPage.getByText(`Your code ${code} was revoked.`)).toBeVisible();
  await fanContext.close();
  await artistContext.close();
});
