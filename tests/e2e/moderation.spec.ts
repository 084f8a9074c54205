import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectNoA11yViolations, registerFan } from './helpers';
import fs from 'node:fs';
import path from 'node:path';
import { apiCall, mailFromOutbox, newArtist, payingFan, signedIn } from './money-world';
import { possessive } from '#contract/names';

/** Where the pages' screenshots go, to be looked at by a person (not compared). */
const SHOTS = process.env.E2E_SHOTS_DIR;

const adminHeaders = () => ({
  'x-stagedoor-admin-token': fs.readFileSync(path.join(process.env.E2E_DATA_DIR ?? '', 'admin-token'), 'utf8').trim(),
});

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

for (const [javaScriptEnabled, width] of [
  [false, 375],
  [true, 1280],
] as const) {
  const mode = `${javaScriptEnabled ? 'with' : 'without'} JavaScript at ${width} px`;
  test(`comments: a fan reports one, the artist hides it and blocks its author, who is told they can't comment (${mode})`, async ({
    browser,
    request,
  }) => {
    const text = `Worst band ever ${Date.now()}`;
    const { artist, fan } = await fanWhoWrites(request, 'Hi');
    const reader = await registerFan(request);
    await apiCall(request, 'POST', '/payment/subscribe/performers', {
      token: reader.token,
      data: { type: 'free', performerId: artist.id },
    });
    const item = await apiCall<{ _id: string }>(request, 'POST', '/content', {
      token: artist.token,
      data: { title: 'Tour dates', content: 'See you there', tags: 'post' },
    });
    await apiCall(request, 'POST', `/content/${item._id}/comments`, { token: fan.token, data: { text } });
    const itemPath = `/${artist.username}/vault/${item._id}`;

    // Another fan reports it, with a reason.
    const readerContext = await signedIn(browser, reader.token, { javaScriptEnabled, width });
    const readerPage = await readerContext.newPage();
    await readerPage.goto(itemPath);
    await readerPage.getByRole('link', { name: `Report comment by ${fan.username}` }).click();
    await expect(readerPage.getByRole('heading', { level: 1, name: 'Report this comment' })).toBeVisible();
    await readerPage.getByRole('button', { name: 'Send report' }).click();
    await expect(readerPage.getByText('Please tell us what is wrong with it.')).toBeVisible();
    await readerPage.getByLabel('What is wrong with it?').fill('Insults the band and every fan');
    await readerPage.getByRole('button', { name: 'Send report' }).click();
    await expect(readerPage.getByText(`Your report has been sent. ${artist.name} and the Stagedoor team can see it.`)).toBeVisible();
    await expectNoA11yViolations(readerPage);
    if (SHOTS) await readerPage.screenshot({ path: `${SHOTS}/report-sent-${width}.png`, fullPage: true });

    // The artist reads the report, hides the comment, and blocks its author from the comment itself.
    const artistContext = await signedIn(browser, artist.token, { javaScriptEnabled, width });
    const artistPage = await artistContext.newPage();
    await artistPage.goto(`/${artist.username}/account/moderation`);
    await expect(artistPage.getByRole('region', { name: /Reports/ }).getByText('Reason: Insults the band and every fan')).toBeVisible();
    await artistPage.goto(itemPath);
    await artistPage.getByRole('button', { name: `Hide comment by ${fan.username}` }).click();
    await expect(artistPage.getByText('Hidden: only you and its author can see it.')).toBeVisible();
    await expectNoA11yViolations(artistPage);
    if (SHOTS) await artistPage.screenshot({ path: `${SHOTS}/comment-hidden-artist-${width}.png`, fullPage: true });
    await artistPage.getByRole('link', { name: `Block ${fan.username}` }).click();
    await artistPage.getByRole('button', { name: `Block ${fan.username}` }).click();
    await expect(artistPage).toHaveURL(new RegExp(`${itemPath}`));

    // The other fan no longer sees it; its author sees it hidden, and a line where the form was.
    await readerPage.goto(itemPath);
    await expect(readerPage.getByText(text)).toHaveCount(0);
    const fanContext = await signedIn(browser, fan.token, { javaScriptEnabled, width });
    const fanPage = await fanContext.newPage();
    await fanPage.goto(itemPath);
    await expect(fanPage.getByText(text)).toBeVisible();
    await expect(fanPage.getByText('Hidden by the artist: only you can see it.')).toBeVisible();
    await expect(fanPage.getByText(`You can't comment on posts by ${artist.name}.`)).toBeVisible();
    await expect(fanPage.getByLabel('Your comment')).toHaveCount(0);
    await expectNoA11yViolations(fanPage);
    if (SHOTS) await fanPage.screenshot({ path: `${SHOTS}/comment-blocked-fan-${width}.png`, fullPage: true });
    await Promise.all([readerContext.close(), artistContext.close(), fanContext.close()]);
  });
}

for (const [javaScriptEnabled, width] of [
  [true, 1280],
  [false, 375],
] as const) {
  const mode = `${javaScriptEnabled ? 'with' : 'without'} JavaScript at ${width} px`;
  test(`blocking a paying fan can also end their membership, the refund shown before confirming; the blocked list offers it later (${mode})`, async ({
    browser,
    request,
  }) => {
    const artist = await newArtist(request, '20');
    const [first, second] = await Promise.all([payingFan(request, artist), payingFan(request, artist)]);
    const idOf = async (fan: { token: string }) => (await apiCall<{ _id: string }>(request, 'GET', '/users/me', { token: fan.token }))._id;
    const [firstId, secondId] = await Promise.all([idOf(first), idOf(second)]);
    const artistContext = await signedIn(browser, artist.token, { javaScriptEnabled, width });
    const page = await artistContext.newPage();

    // The confirmation offers it, with the amount: a year just paid is all unused.
    await page.goto(`/${artist.username}/account/moderation/block/${firstId}`);
    await expect(page.getByRole('heading', { level: 1, name: `Block ${first.username}?` })).toBeVisible();
    const choice = page.getByRole('checkbox', { name: 'Also end their membership and refund the unused part' });
    await expect(choice).not.toBeChecked();
    await expect(page.getByText(/^Refund £20\.00: £20\.00 to their card \((365|366) of \1 days unused\)\./)).toBeVisible();
    await expectNoA11yViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/block-end-membership-${width}.png`, fullPage: true });
    await choice.check();
    await page.getByRole('button', { name: `Block ${first.username}` }).click();

    await expect(page).toHaveURL(new RegExp(`/${artist.username}/account/moderation\\?done=end-membership`));
    await expect(page.getByText('Blocked, and their membership has ended: it will not renew.')).toBeVisible();
    await expect(page.getByText(`ended membership @${first.username}`)).toBeVisible();
    await expect(page.getByText('Refunded the unused part: £20.00')).toBeVisible();
    const mail = await mailFromOutbox(first.email, /refunded £20\.00/);
    expect(mail.text).toContain('ended your membership and refunded the part you had not used yet');
    const membership = await apiCall<{ isSubscribed: boolean }>(request, 'GET', `/performers/${artist.username}`, { token: first.token });
    expect(membership.isSubscribed).toBe(false);

    // A fan blocked before: the blocked list offers it, and the same confirmation shows the amount.
    await apiCall(request, 'PUT', `/moderation/blocks/${secondId}`, { token: artist.token, data: {} });
    await page.goto(`/${artist.username}/account/moderation`);
    const blocked = page.getByRole('region', { name: 'Blocked fans' });
    await expect(blocked.getByRole('link', { name: `End membership and refund ${first.username}` })).toHaveCount(0);
    await blocked.getByRole('link', { name: `End membership and refund ${second.username}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `End ${possessive(second.username)} membership?` })).toBeVisible();
    await expect(page.getByText(/Refund £20\.00: £20\.00 to their card/)).toBeVisible();
    await expectNoA11yViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/blocked-end-membership-${width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'End it and refund £20.00' }).click();
    await expect(page.getByText('Blocked, and their membership has ended: it will not renew.')).toBeVisible();
    await expect(blocked.getByRole('link', { name: `End membership and refund ${second.username}` })).toHaveCount(0);
    await mailFromOutbox(second.email, /refunded £20\.00/);
    await artistContext.close();
  });
}

test('the operator suspends an account from their page; it is signed out at once and told why when it signs in', async ({
  browser,
  request,
}) => {
  const operator = await registerFan(request);
  const suspect = await registerFan(request);
  await apiCall(request, 'POST', '/admin/operators', { data: { user: operator.email }, headers: adminHeaders() });
  const operatorContext = await signedIn(browser, operator.token, { javaScriptEnabled: false, width: 375 });
  const operatorPage = await operatorContext.newPage();
  await operatorPage.goto('/operator');
  await expect(operatorPage.getByRole('heading', { level: 1, name: 'Operator' })).toBeVisible();
  await operatorPage.getByLabel('Username or email').fill(suspect.username);
  await operatorPage.getByLabel('Reason (for the log)').fill('Harassing an artist');
  await operatorPage.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(operatorPage.getByText(`Suspended @${suspect.username}.`)).toBeVisible();
  await expect(operatorPage.getByText(`suspended account @${suspect.username}`)).toBeVisible();
  await expectNoA11yViolations(operatorPage);
  if (SHOTS) await operatorPage.screenshot({ path: `${SHOTS}/operator-375.png`, fullPage: true });

  // The suspended account's session is gone: its next page is the log-in, which says why it cannot sign in.
  const suspectContext = await signedIn(browser, suspect.token);
  const suspectPage = await suspectContext.newPage();
  await suspectPage.goto('/discover');
  await expect(suspectPage).toHaveURL(/\/login/);
  await suspectPage.getByLabel('Email address').fill(suspect.email);
  await suspectPage.getByLabel('Password', { exact: true }).fill(suspect.password);
  await suspectPage.getByRole('button', { name: 'Log In' }).click();
  await expect(
    suspectPage.getByText('This account has been suspended. If you think this is a mistake, contact Stagedoor support.'),
  ).toBeVisible();
  await Promise.all([operatorContext.close(), suspectContext.close()]);
});
