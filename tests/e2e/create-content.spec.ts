import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { wavFile } from '../../api/media/wav';
import { apiBase, expectNoA11yViolations, signInAs, uniqueName } from './helpers';

/**
 * The artist's creation pages (docs/pages-content.md), in Chromium against the built app: a text post with a poll and a
 * thumbnail, an image post, a scheduled vault voice note, a draft edited and deleted; every message of the post
 * form on bad input; a fan refused with the 404 page; and the text post journey again without JavaScript.
 */

/** The seeded accounts (README "Demo logins"). */
const ARTIST = { email: 'nova@stagedoor.test', password: 'Stagedoor-artist-2026!', username: 'novaricci' };
const FAN = { email: 'fan@stagedoor.test', password: 'Stagedoor-fan-2026!' };

interface Item {
  _id: string;
  type: string;
  title: string;
  content: string;
  state: string;
  publishAt: string;
  thumbnail: { kind: string } | null;
  media: { _id: string; kind: string; mime: string } | null;
  poll: { title: string; answers: { text: string }[]; closesAt?: string | null } | null;
  presale?: { ticketUrl: string; saleStartsAt: string | null; saleEndsAt: string | null } | null;
}

async function getItem(request: APIRequestContext, token: string, id: string) {
  const response = await request.get(`${apiBase}/content/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: Item }).data;
}

/** The item id the success page was given. */
function idFrom(page: Page) {
  const id = new URL(page.url()).searchParams.get('id');
  expect(id).toBeTruthy();
  return id!;
}

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#f9ef1e' } })
    .png()
    .toBuffer();

/** A tenth of a second of 8 kHz silence: the smallest honest WAV. */
const wav = () => wavFile(Buffer.alloc(800, 128));

const pad = (n: number) => String(n).padStart(2, '0');
/** DD/MM/YYYY and HH:MM in UTC, as the schedule widget reads them. */
function gmt(at: Date) {
  return {
    date: `${pad(at.getUTCDate())}/${pad(at.getUTCMonth() + 1)}/${at.getUTCFullYear()}`,
    time: `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`,
  };
}

const caption = (page: Page) => page.getByRole('textbox', { name: 'Caption' });

/** Opens a creation form once JavaScript has taken over (the caption's textarea has become the editor). */
async function openForm(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('toolbar', { name: 'Formatting' })).toBeVisible();
}

test.describe('an artist with JavaScript', () => {
  let token: string;
  test.beforeEach(async ({ context, request }) => {
    token = await signInAs(context, request, ARTIST);
  });

  test('writes a text post with a poll and a thumbnail, and publishes it', async ({ page, request }) => {
    await openForm(page, '/novaricci/account/create-text');
    await expect(page.getByRole('heading', { level: 1, name: 'Write a post' })).toBeVisible();
    await expectNoA11yViolations(page);
    const title = `Which song opens the tour? ${uniqueName('t')}`;
    await page.getByLabel('Title').fill(title);
    await caption(page).click();
    await page.keyboard.type('Vote below. ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('Closes Friday.');
    await expect(page.getByRole('combobox', { name: 'Category' })).toHaveValue('post');
    await page.getByLabel('Thumbnail (optional)').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await png() });
    await page.getByRole('checkbox', { name: 'Add a poll' }).check();
    await page.getByLabel('Poll question').fill('Opening song?');
    await expect(page.getByRole('textbox', { name: /^Answer \d+$/ })).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Answer 1' }).fill('Neon Vespers');
    await page.getByRole('textbox', { name: 'Answer 2' }).fill('Glasshouse');
    await page.getByRole('button', { name: 'Add answer' }).click();
    await page.getByRole('textbox', { name: 'Answer 3' }).fill('Low Tide');
    // Enter in a field neither adds nor removes an answer, nor sends the form.
    await page.getByLabel('Title').press('Enter');
    await page.getByRole('textbox', { name: 'Answer 1' }).press('Enter');
    await expect(page.getByRole('textbox', { name: /^Answer \d+$/ })).toHaveCount(3);
    await expect(page).toHaveURL(/\/novaricci\/account\/create-text$/);
    await expectNoA11yViolations(page);
    await page.getByRole('button', { name: 'Publish' }).click();

    await expect(page).toHaveURL(/\/novaricci\/account\/create-text-success\?id=[^&]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Published' })).toBeVisible();
    await expectNoA11yViolations(page);
    const id = idFrom(page);
    await expect(page.getByRole('link', { name: 'View it' })).toHaveAttribute('href', `/novaricci/vault/${id}?type=post&from=home`);
    await expect(page.getByRole('link', { name: 'Create another' })).toHaveAttribute('href', '/novaricci/account/create-text');

    const item = await getItem(request, token, id);
    expect(item).toMatchObject({ type: 'post', title, state: 'published' });
    expect(item.content).toMatch(/^<p>Vote below. <(b|strong)>Closes Friday\.<\/(b|strong)><\/p>$/);
    expect(item.thumbnail?.kind).toBe('image');
    expect(item.poll?.title).toBe('Opening song?');
    expect(item.poll?.answers.map((answer) => answer.text)).toEqual(['Neon Vespers', 'Glasshouse', 'Low Tide']);
  });

  test('the calendar opens with the focus on today, inside the page, with nothing for axe to find', async ({ page }) => {
    await openForm(page, '/novaricci/account/create-text');
    await page.getByRole('checkbox', { name: 'Add a poll' }).check();
    await page.getByRole('checkbox', { name: 'Schedule post' }).check();
    // Scheduling fills in a time half an hour ahead, which is tomorrow after 23:30 UTC; the calendar opens on the day
    // the field holds (below), so the field is emptied first for it to open on today.
    await page.getByLabel('Date (DD/MM/YYYY)').fill('');
    const opener = page.getByRole('button', { name: 'Choose a date from the calendar' });
    await opener.click();
    const calendar = page.getByRole('main').getByLabel('Calendar');
    await expect(calendar).toBeVisible();
    await expect(calendar.locator('button[aria-current="date"]')).toBeFocused();
    await expectNoA11yViolations(page);
    await page.keyboard.press('Escape');
    await expect(calendar).toBeHidden();
    await expect(opener).toBeFocused();
    // Picking a day fills the date, and the calendar opens on it next time.
    await opener.click();
    await calendar.getByRole('button', { name: 'Next month' }).click();
    await calendar.getByRole('button', { name: /^\w+day 15 / }).click();
    await expect(page.getByLabel('Date (DD/MM/YYYY)')).toHaveValue(/^15\/\d\d\/\d{4}$/);
    await opener.click();
    await expect(calendar.locator('button[aria-pressed="true"]')).toBeFocused();
  });

  test('posts a photo', async ({ page, request }) => {
    await openForm(page, '/novaricci/account/create-image');
    await expect(page.getByRole('heading', { level: 1, name: 'Post a photo' })).toBeVisible();
    await expectNoA11yViolations(page);
    await page.getByLabel('Title').fill('Soundcheck in Leeds');
    await caption(page).fill('Empty room, full sound.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Please add a photo.')).toBeVisible();
    // The api reads the content, not the name: a renamed text file is refused, and the message shows on the field.
    await page
      .getByLabel('Photo', { exact: true })
      .setInputFiles({ name: 'leeds.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText("This file type isn't supported. Upload a JPEG, PNG, WebP or GIF image.")).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveValue('Soundcheck in Leeds');
    await expectNoA11yViolations(page);
    await page
      .getByLabel('Photo', { exact: true })
      .setInputFiles({ name: 'leeds.png', mimeType: 'image/png', buffer: await png(2000, 1500) });
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Published' })).toBeVisible();
    const item = await getItem(request, token, idFrom(page));
    expect(item).toMatchObject({ type: 'photo', title: 'Soundcheck in Leeds', state: 'published' });
    expect(item.media?.kind).toBe('image');

    // Its page shows the display size, never the 2000 px upload, and links to the original.
    await page.getByRole('link', { name: 'View it' }).click();
    const photo = page.getByRole('img', { name: 'Soundcheck in Leeds' });
    await expect(photo).toHaveJSProperty('complete', true);
    expect(await photo.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/[?&]size=(large|thumb)&/);
    await expect(page.getByRole('link', { name: 'Open the full-size photo (2000 × 1500)' })).toHaveAttribute(
      'href',
      new RegExp(`/media/${item.media!._id}\\?expires=\\d+&sig=`),
    );
  });

  test('schedules a voice note for the vault', async ({ page, request }) => {
    await openForm(page, '/novaricci/account/add-to-vault');
    await expect(page.getByRole('heading', { level: 1, name: 'Add to the vault' })).toBeVisible();
    await expectNoA11yViolations(page);
    await page.getByLabel('Title').fill('Late night idea');
    await page.getByRole('textbox', { name: 'Caption' }).fill('Hummed into the phone at 3 am.');
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Voice Note' });
    // With JavaScript the file goes at once, as a resumable upload (tus), with its progress; the form then sends its id.
    const tus: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(`${apiBase}/uploads`)) tus.push(request.method());
    });
    await page.getByLabel('Audio or video file').setInputFiles({ name: 'idea.wav', mimeType: 'audio/wav', buffer: wav() });
    await expect(page.getByRole('status').filter({ hasText: 'Uploaded: idea.wav' })).toBeVisible();
    expect(tus).toEqual(expect.arrayContaining(['POST', 'PATCH']));
    const before = Date.now();
    await page.getByRole('checkbox', { name: 'Schedule post' }).check();
    const after = Date.now();
    // Turned on, it proposes 30 minutes from now (UTC), from the moment of the tick: the minute may turn
    // between the two clock readings around it.
    const proposals = [before, after].map((now) => gmt(new Date(now + 30 * 60_000))).map(({ date, time }) => `${date} ${time}`);
    const proposed = async () =>
      `${await page.getByLabel('Date (DD/MM/YYYY)').inputValue()} ${await page.getByLabel('Time (HH:MM, GMT)').inputValue()}`;
    await expect.poll(proposed).toMatch(new RegExp(`^(${proposals.join('|')})$`));
    const at = new Date(Date.now() + 2 * 86_400_000);
    at.setUTCHours(18, 30, 0, 0);
    await page.getByLabel('Date (DD/MM/YYYY)').fill(gmt(at).date);
    await page.getByLabel('Time (HH:MM, GMT)').fill('18:30');
    await page.getByRole('button', { name: 'Publish' }).click();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Scheduled for .* at 18:30 GMT$/);
    await expectNoA11yViolations(page);
    expect(new URL(page.url()).searchParams.get('scheduledAt')).toBe(at.toISOString());
    const item = await getItem(request, token, idFrom(page));
    expect(item).toMatchObject({ type: 'voicenote', state: 'scheduled', publishAt: at.toISOString() });
    expect(item.media).toMatchObject({ kind: 'audio' });
  });

  test('a resumable upload shows its progress and can be cancelled', async ({ page }) => {
    await openForm(page, '/novaricci/account/add-to-vault');
    // The upload's data is held back until the artist has cancelled, so the upload is still under way when they do
    // (held for a fixed time, a slow accessibility scan on a busy machine let it finish first).
    let release = () => {};
    const cancelled = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${apiBase}/uploads/*`, async (route) => {
      if (route.request().method() === 'PATCH') await cancelled;
      await route.continue().catch(() => undefined);
    });
    const deleted = page.waitForRequest((request) => request.url().startsWith(`${apiBase}/uploads/`) && request.method() === 'DELETE');
    await page.getByLabel('Audio or video file').setInputFiles({ name: 'long-take.wav', mimeType: 'audio/wav', buffer: wav() });
    const progress = page.getByRole('progressbar', { name: 'Uploading long-take.wav' });
    await expect(progress).toBeVisible();
    await expectNoA11yViolations(page);
    await page.getByRole('button', { name: 'Cancel upload' }).click();
    await deleted;
    release();
    await expect(progress).toHaveCount(0);
    await expect(page.getByLabel('Audio or video file')).toHaveValue('');
  });

  test('saves a draft, finds it in "Your content", edits it and deletes it', async ({ page, request }) => {
    const title = `Setlist draft ${uniqueName('d')}`;
    await openForm(page, '/novaricci/account/create-text');
    await page.getByLabel('Title').fill(title);
    await caption(page).fill('Not sure about the encore yet.');
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Announcement' });
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Saved as a draft' })).toBeVisible();
    await expect(page).toHaveURL(/draft=true/);
    const id = idFrom(page);
    expect(await getItem(request, token, id)).toMatchObject({ state: 'draft', type: 'announcement' });

    await page.goto('/novaricci/account/content');
    await expectNoA11yViolations(page);
    const drafts = page.getByRole('region', { name: /^Drafts/ });
    await drafts.getByRole('link', { name: `Edit ${title}` }).click();
    await expect(page).toHaveURL(`/novaricci/account/content/${id}/edit`);
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(caption(page)).toHaveText('Not sure about the encore yet.');
    await expect(page.getByRole('combobox', { name: 'Category' })).toHaveValue('announcement');
    await expectNoA11yViolations(page);
    await page.getByLabel('Title').fill(`${title} v2`);
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Saved as a draft' })).toBeVisible();
    expect((await getItem(request, token, id)).title).toBe(`${title} v2`);

    // The draft's own page, reached from "Your content", leads to its edit page too.
    await page.goto('/novaricci/account/content');
    await drafts.getByRole('link', { name: `${title} v2`, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: `${title} v2` })).toBeVisible();
    await expect(page.getByText('Draft', { exact: true })).toBeVisible();
    await page.getByRole('link', { name: `Edit or delete “${title} v2”` }).click();
    await expect(page).toHaveURL(`/novaricci/account/content/${id}/edit`);
    await expect(page.getByRole('toolbar', { name: 'Formatting' })).toBeVisible();
    // A disclosure (<summary>, no button role): closed, the question is not shown; "Keep it" closes it again.
    const question = page.getByText(`Delete “${title} v2” for good?`);
    await expect(question).toBeHidden();
    await page.locator('summary', { hasText: 'Delete' }).click();
    await expect(question).toBeVisible();
    await page.locator('summary', { hasText: 'Keep it' }).click();
    await expect(question).toBeHidden();
    await page.locator('summary', { hasText: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await expect(page).toHaveURL('/novaricci/account/content?deleted=true');
    await expect(page.getByRole('status')).toHaveText('Deleted.');
    const gone = await request.get(`${apiBase}/content/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(gone.status()).toBe(404);
  });

  test('sees each message of the post form on a bad submission', async ({ page }) => {
    await openForm(page, '/novaricci/account/create-text');
    const publish = page.getByRole('button', { name: 'Publish' });
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Choose a category' });
    await publish.click();
    await expect(page.getByText('Please enter a title for your post.')).toBeVisible();
    await expect(page.getByText('Please enter a caption for your post.')).toBeVisible();
    await expect(page.getByText('Please select a category for your post.')).toBeVisible();
    await expectNoA11yViolations(page);

    await page.getByLabel('Title').fill('x'.repeat(101));
    await caption(page).fill('y'.repeat(4001));
    await expect(page.getByText('Title is too long. Please shorten it to stay within the character limit.')).toBeVisible();
    await expect(page.getByText('Caption is too long. Please shorten it to stay within the character limit.')).toBeVisible();
    await expect(page.getByText('4001 / 4000 characters')).toBeVisible();

    const poll = page.getByRole('group', { name: 'Poll' });
    await poll.getByRole('checkbox', { name: 'Add a poll' }).check();
    await publish.click();
    await expect(poll.getByText('Please enter a question for your poll.')).toBeVisible();
    await expect(poll.getByText('Please fill in all answer fields.')).toHaveCount(2);
    await poll.getByLabel('Poll question').fill('q'.repeat(51));
    await expect(poll.getByText('Title is too long. Please shorten it to stay within the character limit.')).toBeVisible();
    await poll.getByLabel('Answer 1').fill('a'.repeat(51));
    await expect(poll.getByText('Answer is too long. Please shorten it to stay within the character limit.')).toBeVisible();

    const schedule = page.getByRole('group', { name: 'Scheduling' });
    await schedule.getByRole('checkbox', { name: 'Schedule post' }).check();
    const soon = gmt(new Date(Date.now() + 5 * 60_000));
    await schedule.getByLabel('Date (DD/MM/YYYY)').fill(soon.date);
    await schedule.getByLabel('Time (HH:MM, GMT)').fill(soon.time);
    await publish.click();
    await expect(schedule.getByText('Scheduled time and date must be at least 10 minutes in the future.')).toBeVisible();
    await schedule.getByLabel('Date (DD/MM/YYYY)').fill('31/02/2031');
    await expect(schedule.getByText('Please enter the date in DD/MM/YYYY format.')).toBeVisible();
    await schedule.getByLabel('Time (HH:MM, GMT)').fill('25:00');
    await expect(schedule.getByText('Invalid time format. Please use 24-hour format (e.g., 14:00).')).toBeVisible();
    await schedule.getByLabel('Time (HH:MM, GMT)').fill('');
    await expect(schedule.getByText('Please enter time in 24-hour format (e.g., 14:00).')).toBeVisible();
    await expectNoA11yViolations(page);
    await expect(page).toHaveURL('/novaricci/account/create-text');
  });

  test("edits a poll's closing time on the item's edit page, with the schedule's date rules", async ({ page, request }) => {
    const closesAt = new Date(Date.now() + 3 * 86_400_000);
    const closes = gmt(closesAt);
    const created = await request.post(`${apiBase}/content`, {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        title: `Encore vote ${uniqueName('e')}`,
        content: 'Pick one.',
        tags: 'post',
        poll: {
          enabled: true,
          title: 'Encore?',
          answers: [{ text: 'Yes' }, { text: 'Louder' }],
          closeDate: closes.date,
          closeTime: closes.time,
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const id = ((await created.json()) as { data: { _id: string } }).data._id;

    await openForm(page, `/novaricci/account/content/${id}/edit`);
    const poll = page.getByRole('group', { name: 'Poll' });
    const date = poll.getByLabel('Closes on (DD/MM/YYYY)');
    const time = poll.getByLabel('Closes at (HH:MM, GMT)');
    await expect(date).toHaveValue(closes.date);
    await expect(time).toHaveValue(closes.time);
    await expectNoA11yViolations(page);

    const publish = page.getByRole('button', { name: 'Publish' });
    const past = gmt(new Date(Date.now() - 86_400_000));
    await date.fill(past.date);
    await publish.click();
    await expect(time).toHaveAccessibleDescription('Please choose a closing time in the future.');
    // Scheduled in five days, the poll cannot close in three.
    const schedule = page.getByRole('group', { name: 'Scheduling' });
    await schedule.getByRole('checkbox', { name: 'Schedule post' }).check();
    const publishAt = gmt(new Date(Date.now() + 5 * 86_400_000));
    await schedule.getByLabel('Date (DD/MM/YYYY)').fill(publishAt.date);
    await schedule.getByLabel('Time (HH:MM, GMT)').fill(publishAt.time);
    await date.fill(closes.date);
    await publish.click();
    await expect(time).toHaveAccessibleDescription('Please choose a closing time after the post is published.');
    await expectNoA11yViolations(page);
    await schedule.getByRole('checkbox', { name: 'Schedule post' }).uncheck();

    // The calendar fills the closing date: it opens on the month of the date the field holds (three days from now,
    // which is next month near a month's end), and the 15th of the month after that is picked.
    await poll.getByRole('button', { name: 'Choose the closing date from the calendar' }).click();
    const calendar = page.getByRole('main').getByLabel('Calendar');
    await calendar.getByRole('button', { name: 'Next month' }).click();
    await calendar.getByRole('button', { name: /^\w+day 15 / }).click();
    await expect(date).toHaveValue(/^15\/\d\d\/\d{4}$/);
    await time.fill('20:30');
    await publish.click();
    await expect(page).toHaveURL(/\/novaricci\/account\/create-text-success\?id=/);

    const [day, month, year] = (await getItem(request, token, id)).poll!.closesAt!.slice(0, 10).split('-').reverse();
    expect(day).toBe('15');
    const next = new Date(closesAt);
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect(`${month}/${year}`).toBe(`${String(next.getUTCMonth() + 1).padStart(2, '0')}/${next.getUTCFullYear()}`);
    expect((await getItem(request, token, id)).poll!.closesAt).toMatch(/T20:30:00\.000Z$/);
  });

  test('a missing id on the success page says so', async ({ page }) => {
    for (const path of ['/novaricci/account/create-text-success', '/novaricci/account/create-text-success?id=']) {
      await page.goto(path);
      await expect(page.getByRole('alert')).toHaveText('Search parameter id is required and must be a non-empty string.');
    }
    await expectNoA11yViolations(page);
  });
});

test('a fan gets the 404 page on the creation pages, and the api refuses them too', async ({ page, context, request }) => {
  const token = await signInAs(context, request, FAN);
  for (const path of ['/thelatenights/account/create-text', '/thelatenights/account/add-to-vault', '/thelatenights/account/content']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("Uh, oh, This page doesn't seem to exist.");
  }
  await expectNoA11yViolations(page);
  const posted = await request.post(`${apiBase}/content`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { title: 'Hi', content: 'Hi', tags: 'post' },
  });
  expect(posted.status()).toBe(403);
});

test.describe('an artist without JavaScript', () => {
  test('writes a text post with a poll, a thumbnail and a schedule', async ({ browser, baseURL, request }) => {
    // A context of its own with JavaScript off, so the accessibility scan's contexts keep theirs (as no-js.spec.ts).
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    const token = await signInAs(context, request, ARTIST);
    await page.goto('/novaricci/account/create-text');
    await expectNoA11yViolations(page);
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Please enter a title for your post.')).toBeVisible();
    await expect(page.getByText('Please enter a caption for your post.')).toBeVisible();

    const title = `Tour diary, day one ${uniqueName('n')}`;
    await page.getByLabel('Title').fill(title);
    await page.getByRole('textbox', { name: 'Caption' }).fill('Leeds was loud.\n\nManchester next.');
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Tour Diary' });
    await page.getByLabel('Thumbnail (optional)').setInputFiles({ name: 'day-one.png', mimeType: 'image/png', buffer: await png() });
    await page.getByRole('checkbox', { name: 'Add a poll' }).check();
    await page.getByLabel('Poll question').fill('Best city so far?');
    await page.getByRole('textbox', { name: 'Answer 1' }).fill('Leeds');
    await page.getByRole('textbox', { name: 'Answer 2' }).fill('Glasgow');
    // Adding an answer is a round trip: the page comes back with a third input and the thumbnail kept.
    await page.getByRole('button', { name: 'Add answer' }).click();
    await expect(page.getByRole('textbox', { name: 'Answer 3' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Answer 1' })).toHaveValue('Leeds');
    await expect(page.getByText('Attached: day-one.png.', { exact: false })).toBeVisible();
    await page.getByRole('textbox', { name: 'Answer 3' }).fill('Bristol');
    await page.getByRole('button', { name: 'Remove answer 2' }).click();
    await expect(page.getByRole('textbox', { name: 'Answer 3' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Answer 2' })).toHaveValue('Bristol');

    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCHours(9, 5, 0, 0);
    await page.getByRole('checkbox', { name: 'Schedule post' }).check();
    await page.getByLabel('Date (DD/MM/YYYY)').fill(gmt(at).date);
    await page.getByLabel('Time (HH:MM, GMT)').fill('9:5');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByText('Invalid time format. Please use 24-hour format (e.g., 14:00).')).toBeVisible();
    await expectNoA11yViolations(page);
    await page.getByLabel('Time (HH:MM, GMT)').fill('09:05');
    await page.getByRole('button', { name: 'Publish' }).click();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Scheduled for .* at 09:05 GMT$/);
    await expectNoA11yViolations(page);
    const item = await getItem(request, token, idFrom(page));
    expect(item).toMatchObject({ type: 'tourDiary', title, state: 'scheduled', publishAt: at.toISOString() });
    expect(item.content).toContain('<p>Leeds was loud.</p>');
    expect(item.content).toContain('<p>Manchester next.</p>');
    expect(item.thumbnail?.kind).toBe('image');
    expect(item.poll?.answers.map((answer) => answer.text)).toEqual(['Leeds', 'Bristol']);
    await context.close();
  });
  test('writes a ticket presale whose window is typed DD/MM/YYYY HH:MM, as every date of the app', async ({
    browser,
    baseURL,
    request,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    const token = await signInAs(context, request, ARTIST);
    await page.goto('/novaricci/account/create-text');
    const title = `Winter presale ${uniqueName('p')}`;
    await page.getByLabel('Title').fill(title);
    await page.getByRole('textbox', { name: 'Caption' }).fill('Members first.');
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Ticket Presale' });
    await page.getByLabel('Ticket link').fill('https://tickets.example.com/winter');
    await page.getByLabel('Presale opens (GMT, optional)').fill('01/12/2027 10:00');
    await page.getByLabel('Presale closes (GMT, optional)').fill('31/11/2027 10:00');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByLabel('Presale closes (GMT, optional)')).toHaveAccessibleDescription('Please enter a valid date and time.');
    await expect(page.getByLabel('Presale opens (GMT, optional)')).toHaveValue('01/12/2027 10:00');
    await page.getByLabel('Presale closes (GMT, optional)').fill('03/12/2027 18:30');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(/\/novaricci\/account\/create-text-success\?id=[^&]+$/);
    const id = idFrom(page);
    const item = await getItem(request, token, id);
    expect(item.presale).toMatchObject({ saleStartsAt: '2027-12-01T10:00:00.000Z', saleEndsAt: '2027-12-03T18:30:00.000Z' });
    // The edit form writes them back the same way.
    await page.goto(`/novaricci/account/content/${id}/edit`);
    await expect(page.getByLabel('Presale opens (GMT, optional)')).toHaveValue('01/12/2027 10:00');
    await expect(page.getByLabel('Presale closes (GMT, optional)')).toHaveValue('03/12/2027 18:30');
    await context.close();
  });
});
