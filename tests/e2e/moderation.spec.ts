import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectNoA11yViolations, registerFan } from './helpers';
import { apiCall, newArtist, signedIn } from './money-world';

/** Where the pages' screenshots go, to be looked at by a person (not compared). */
const SHOTS = process.env.E2E_SHOTS_DIR;

/** A free artist of its own, and a fan who joins and writes to them. */
async function fanWhoWrites(request: APIRequestContext, text: string) {
  const artist = await newArtist(request, '0');
  const registered = await registerFan(request);
  const me = await apiCall<{ _id: string }>(request, 'GET', '/users/me', { token: registered.token });
  const fan = { ...registered, id: me._id };
  await apiCall(request, 'POST', '/payment/subscribe/performers', { token: fan.token, data: { type: 'free', performerId: artist.id } });
  const conversation = await apiCall<{ _id: string }>(request, 'POST', '/conversations', {
    token: fan.token,
    data: { source: 'performer', sourceId: artist.id },
  });
  await apiCall(request, 'POST', `/messages/conversations/${conversation._id}`, {
    token: fan.token,
    data: { text, fileIds: [], type: 'text' },
  });
  const profile = await apiCall<{ name: string }>(request, 'GET', `/performers/${artist.username}`);
  return { artist: { ...artist, name: profile.name }, fan, conversationId: conversation._id };
}

for (const javaScriptEnabled of [true, false]) {
  for (const width of [375, 1280]) {
    const mode = `${javaScriptEnabled ? 'with' : 'without'} JavaScript at ${width} px`;
    test(`the artist blocks a fan from their message in two taps, and the fan is told "You can't message …" (${mode})`, async ({
      browser,
      request,
    }) => {
      const text = `You owe me a song ${Date.now()}`;
      const { artist, fan, conversationId } = await fanWhoWrites(request, text);
      const conversationPath = `/${artist.username}/account/messages/${conversationId}`;

      const artistContext = await signedIn(browser, artist.token, { javaScriptEnabled, width });
      const artistPage = await artistContext.newPage();
      await artistPage.goto(`${conversationPath}?username=${fan.username}`);
      const message = artistPage.getByTestId('message').filter({ hasText: text });
      await expect(message).toBeVisible();

      // First tap: Block beside the fan's message. Second: the confirmation.
      await message.getByRole('link', { name: `Block ${fan.username}` }).click();
      await expect(artistPage.getByRole('heading', { level: 1, name: `Block ${fan.username}?` })).toBeVisible();
      await expectNoA11yViolations(artistPage);
      if (SHOTS)
        await artistPage.screenshot({ path: `${SHOTS}/block-confirm-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
      await artistPage.getByRole('button', { name: `Block ${fan.username}` }).click();

      // Back in the conversation, which now says so; the Block link has gone.
      await expect(artistPage).toHaveURL(new RegExp(`${conversationPath}\\?username=${fan.username}`));
      await expect(artistPage.getByText(`You have blocked ${fan.username}: they can't message you.`)).toBeVisible();
      await expect(message.getByRole('link', { name: `Block ${fan.username}` })).toHaveCount(0);

      const fanContext = await signedIn(browser, fan.token, { javaScriptEnabled, width });
      const fanPage = await fanContext.newPage();
      await fanPage.goto(`${conversationPath}?username=${artist.username}`);
      await expect(fanPage.getByTestId('message').filter({ hasText: text })).toBeVisible();
      await expect(fanPage.getByText(`You can't message ${artist.name}.`)).toBeVisible();
      await expect(fanPage.getByLabel('Message', { exact: true })).toHaveCount(0);
      await expectNoA11yViolations(fanPage);
      if (SHOTS) {
        await fanPage.screenshot({ path: `${SHOTS}/fan-blocked-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
        await artistPage.screenshot({ path: `${SHOTS}/artist-blocked-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
      }

      // The artist's list of blocked fans, and undoing it.
      await artistPage.goto(`/${artist.username}/account/moderation`);
      const blocked = artistPage.getByRole('region', { name: 'Blocked fans' });
      await expect(blocked.getByText(`@${fan.username}`)).toBeVisible();
      await expectNoA11yViolations(artistPage);
      if (SHOTS)
        await artistPage.screenshot({ path: `${SHOTS}/moderation-${width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
      await blocked.getByRole('button', { name: `Unblock ${fan.username}` }).click();
      await expect(artistPage.getByRole('region', { name: 'Blocked fans' }).getByText('You have not blocked anyone.')).toBeVisible();

      await fanPage.reload();
      await expect(fanPage.getByLabel('Message', { exact: true })).toBeVisible();
      await artistContext.close();
      await fanContext.close();
    });
  }
}

test('with JavaScript, the fan’s open conversation loses its message box the moment the artist blocks them', async ({
  browser,
  request,
}) => {
  const text = `Are you there ${Date.now()}`;
  const { artist, fan, conversationId } = await fanWhoWrites(request, text);
  const fanContext = await signedIn(browser, fan.token);
  const fanPage = await fanContext.newPage();
  await fanPage.goto(`/${artist.username}/account/messages/${conversationId}?username=${artist.username}`);
  await expect(fanPage.getByLabel('Message', { exact: true })).toBeVisible();
  await fanPage.locator('html[data-realtime="connected"]').waitFor({ state: 'attached' });
  await apiCall(request, 'PUT', `/moderation/blocks/${fan.id}`, { token: artist.token, data: {} });
  await expect(fanPage.getByText(`You can't message ${artist.name}.`)).toBeVisible();
  await expect(fanPage.getByLabel('Message', { exact: true })).toHaveCount(0);
  await fanContext.close();
});
