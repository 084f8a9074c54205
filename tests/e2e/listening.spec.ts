import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './helpers';
import { createItem, endMembership, uploadAudio, uploadVideo, type Item } from './listening-world';
import { apiCall } from './money-world';
import { newArtist, payingFan, signedIn, type MoneyArtist } from './money-world';

/**
 * Listening like a fan, in Chromium against the built app: a comment on a moment of a track ("1:23" that seeks, and
 * `?t=83`), search of the vault (a word of one artist's vault and not another's, with filters), and a lapsed
 * member who keeps what was published while they paid and is sent to subscribe for anything newer.
 */

let artist: MoneyArtist;
let other: MoneyArtist;
let track: Item;

test.beforeAll(async ({ request }) => {
  [artist, other] = await Promise.all([newArtist(request, '4.99', 'usd'), newArtist(request, '4.99', 'usd')]);
  const audio = await uploadAudio(request, artist, 100);
  track = await createItem(request, artist, {
    title: 'The new demo',
    tags: 'demo',
    mediaId: audio,
    content: '<p>Rough mix, lighthouse chorus.</p>',
  });
  await createItem(request, artist, { title: 'Tour diary: Oslo', tags: 'tourDiary', content: '<p>A harbour at night.</p>' });
  await createItem(request, other, { title: 'Elsewhere', tags: 'demo', content: '<p>Only the other vault says albatross.</p>' });
});

/** Where the player in the layout is, by its seek slider (seconds). */
async function playerPosition(page: Page, title: string) {
  return Number(
    await page
      .getByRole('region', { name: 'Player' })
      .getByRole('slider', { name: `Seek in ${title}` })
      .inputValue(),
  );
}

test('a fan comments at 1:23, the "1:23" link plays from there, and ?t=83 starts there', async ({ browser, request }) => {
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault/${track._id}?type=audio`);
  await expect(page.getByRole('heading', { level: 1, name: track.title })).toBeVisible();
  await page.getByLabel('Your comment').fill('This chorus!');
  await page.getByLabel('At a moment (optional)').fill('1:23');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const moment = page.getByRole('listitem').filter({ hasText: 'This chorus!' }).getByRole('link', { name: 'Play from 1:23' });
  await expect(moment).toHaveText('1:23');
  await expectNoA11yViolations(page);

  // The link plays the track in the player in the layout from 1:23 (no new page is loaded).
  await moment.click();
  const player = page.getByRole('region', { name: 'Player' });
  await expect(player.getByRole('button', { name: `Pause ${track.title}` })).toBeVisible();
  await expect.poll(() => playerPosition(page, track.title)).toBeGreaterThanOrEqual(83);
  expect(await playerPosition(page, track.title)).toBeLessThan(95);
  // The waveform carries the comment as a marker, a link to the same moment.
  await expect(page.getByRole('link', { name: 'Comment at 1:23: This chorus!' })).toHaveAttribute('href', /[?&]t=83/);

  // "Now" takes the playhead into the form.
  await page.getByRole('button', { name: 'Now (use where the player is)' }).click();
  await expect(page.getByLabel('At a moment (optional)')).toHaveValue(/^1:(2[3-9]|3\d)$/);
  await player.getByRole('button', { name: 'Close the player' }).click();
  await expect(player).toHaveCount(0);

  // A link to the item at 83 s starts the player there.
  const fresh = await context.newPage();
  await fresh.goto(`/${artist.username}/vault/${track._id}?type=audio&t=83`);
  await expect(fresh.locator('#player')).toContainText('1:23');
  await fresh.getByRole('button', { name: `Play ${track.title}` }).click();
  await expect.poll(() => playerPosition(fresh, track.title)).toBeGreaterThanOrEqual(83);
  await context.close();
});

test('without JavaScript the moment is a field of the form and the "1:23" link a plain link to ?t=83', async ({ browser, request }) => {
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault/${track._id}?type=audio`);
  await page.getByLabel('Your comment').fill('Goosebumps');
  await page.getByLabel('At a moment (optional)').fill('nonsense');
  await page.getByRole('button', { name: 'Post comment' }).click();
  await expect(page.getByText('Write the time as minutes and seconds, like 1:23.')).toBeVisible();
  await page.getByLabel('At a moment (optional)').fill('1:23');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const moment = page.getByRole('listitem').filter({ hasText: 'Goosebumps' }).getByRole('link', { name: 'Play from 1:23' });
  await expect(moment).toHaveAttribute('href', /[?&]t=83(&|#|$)/);
  await expect(page.locator('audio[data-item-player]')).toHaveAttribute('src', /#t=83$/);
  await expectNoA11yViolations(page);
  await context.close();
});

test('search finds a word of this vault, keeps the filters, and never finds another artist’s words', async ({ browser, request }) => {
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault?filters=demo`);
  const search = page.getByRole('search', { name: 'Search the vault' });
  await search.getByRole('searchbox').fill('lighthouse');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/[?&]q=lighthouse/);
  await expect(page).toHaveURL(/[?&]filters=demo/);
  await expect(page.getByRole('status')).toHaveText(/1 item matches “lighthouse”/);
  const grid = page.getByRole('region', { name: 'Vault items' });
  await expect(grid.getByRole('link', { name: track.title })).toBeVisible();
  await expect(grid.locator('mark')).toHaveText(['lighthouse']);
  await expectNoA11yViolations(page);

  await search.getByRole('searchbox').fill('albatross');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('status')).toHaveText(/0 items match “albatross”/);
  await expect(page.getByText('Nothing matches your search. Try other words.')).toBeVisible();

  // The posts page searches captions the same way.
  await page.goto(`/${artist.username}/posts?q=harbour`);
  await expect(page.getByRole('link', { name: 'Tour diary: Oslo', exact: true })).toBeVisible();
  await context.close();
});

test('a lapsed member opens an item from their paid time and is sent to subscribe for a newer one', async ({ browser, request }) => {
  const fan = await payingFan(request, artist);
  const paidFor = await createItem(request, artist, { title: 'Paid-time voice note', tags: 'voicenote' });
  await endMembership(request, artist, fan.email);
  const newer = await createItem(request, artist, { title: 'After-you-left demo', tags: 'demo' });

  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault`);
  await expect(page.getByRole('heading', { name: /^Your membership ended on / })).toBeVisible();
  const kept = page.getByRole('region', { name: 'From your membership' });
  await expect(kept.getByRole('link', { name: paidFor.title })).toBeVisible();
  await expect(kept.getByRole('link', { name: newer.title })).toHaveCount(0);
  await expectNoA11yViolations(page);
  await kept.getByRole('link', { name: paidFor.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: paidFor.title })).toBeVisible();

  await page.goto(`/${artist.username}/vault/${newer._id}?type=post`);
  await expect(page).toHaveURL(new RegExp(`/${artist.username}/subscribe$`));
  // The rest of the club is for members: the home page sends them to subscribe too.
  await page.goto(`/${artist.username}`);
  await expect(page).toHaveURL(new RegExp(`/${artist.username}/subscribe$`));
  await context.close();
});

test('the artist types a transcript without JavaScript; fans read it under the player and find the item by a word said in it', async ({
  browser,
  request,
}) => {
  const audio = await uploadAudio(request, artist, 20);
  const note = await createItem(request, artist, { title: 'Voice note from the ferry', tags: 'voicenote', mediaId: audio });
  const artistContext = await signedIn(browser, artist.token, { javaScriptEnabled: false });
  const studio = await artistContext.newPage();
  await studio.goto(`/${artist.username}/vault/${note._id}?type=audio`);
  await expect(studio.getByText('No transcript yet.')).toBeVisible();
  await studio.getByLabel('Transcript', { exact: true }).fill('Just words');
  await studio.getByRole('button', { name: 'Save the transcript' }).click();
  await expect(studio.getByText('Start each paragraph with its time, like 0:12, or add a WebVTT file.')).toBeVisible();
  await studio.getByLabel('Transcript', { exact: true }).fill('0:00 Hello from the ferry.\n\n0:05 The gulls are singing marmalade songs.');
  await studio.getByRole('button', { name: 'Save the transcript' }).click();
  await expect(studio.getByText('No transcript yet.')).toHaveCount(0);
  await expectNoA11yViolations(studio);
  await artistContext.close();

  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault?q=marmalade`);
  const grid = page.getByRole('region', { name: 'Vault items' });
  await expect(grid.getByRole('link', { name: note.title })).toBeVisible();
  await expect(grid.locator('mark')).toHaveText(['marmalade']);
  await grid.getByRole('link', { name: note.title }).click();
  const transcript = page.getByRole('region', { name: 'Transcript' });
  await expect(transcript.getByRole('listitem')).toHaveCount(2);
  await expect(transcript.getByRole('link', { name: 'Play from 0:05' })).toHaveAttribute('href', /[?&]t=5/);
  // Pressing a line plays from there, and that line is the current one.
  await transcript.getByRole('link', { name: 'Play from 0:05' }).click();
  await expect(transcript.locator('li[aria-current="true"]')).toContainText('marmalade');
  await expectNoA11yViolations(page);
  await context.close();
  // Not found in another artist's vault.
  const otherFan = await payingFan(request, other);
  const found = await apiCall<{ total: number }>(request, 'GET', `/performers/${other.username}/content?section=vault&q=marmalade`, {
    token: otherFan.token,
  });
  expect(found.total).toBe(0);
});

test('captions appear on a video', async ({ browser, request }) => {
  const video = await uploadVideo(request, artist, 3);
  const clip = await createItem(request, artist, { title: 'Studio clip', tags: 'musicVideo', mediaId: video });
  await apiCall(request, 'PUT', `/content/${clip._id}/transcript`, {
    token: artist.token,
    data: { transcript: 'WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nWelcome to the studio' },
  });
  const fan = await payingFan(request, artist);
  const context = await signedIn(browser, fan.token);
  const page = await context.newPage();
  await page.goto(`/${artist.username}/vault/${clip._id}?type=video`);
  const videoElement = page.locator('video[data-item-player]');
  await expect(videoElement.locator('track[kind="captions"]')).toHaveAttribute('src', `/${artist.username}/vault/${clip._id}/captions.vtt`);
  // The video is HLS: hls.js comes when the fan presses play (docs/media.md), and the captions with the stream.
  await videoElement.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
  });
  await page.getByRole('button', { name: 'Play Studio clip' }).click();
  await expect.poll(() => videoElement.evaluate((element: HTMLVideoElement) => element.duration)).toBeGreaterThan(2);
  await videoElement.evaluate((element: HTMLVideoElement) => {
    element.pause();
    element.currentTime = 1;
  });
  await expect
    .poll(() =>
      videoElement.evaluate((element: HTMLVideoElement) => {
        const track = element.textTracks[0];
        return track && track.mode === 'showing' && track.activeCues?.length ? (track.activeCues[0] as VTTCue).text : null;
      }),
    )
    .toBe('Welcome to the studio');
  await expect(page.getByRole('region', { name: 'Transcript' })).toContainText('Welcome to the studio');
  const vtt = await page.request.get(`/${artist.username}/vault/${clip._id}/captions.vtt`);
  expect(vtt.headers()['content-type']).toContain('text/vtt');
  await context.close();
});
