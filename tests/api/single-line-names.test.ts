import { afterAll, beforeAll, expect, it } from 'vitest';
import { settingsMessages } from '#contract/account-settings';
import { profileMessages } from '#contract/artist-profile';
import { contentMessages, interactionMessages } from '#contract/content-rules';
import { NewArtistSchema } from '../../api/performers/create';
import { call, describeEachDatabase, makeArtist, registerFan, startTestApi, type TestApi, type TestUser } from '../helpers/api';

/**
 * Names and titles shown on one line (a display name, an artist's name, a post's, poll's or collection's title)
 * refuse line breaks, tabs, other control characters and direction overrides with a message on the field, through
 * the contract's shared schemas (the web's forms check the same ones); letters, emoji and their joiners pass.
 */

const OFF_THE_LINE = [
  'Nova\r\nRicci',
  'Nova\nRicci',
  'Nova\tRicci',
  'Nova\u0007Ricci',
  'Nova\u2028Ricci',
  'Nova\u202Eicci',
  'Nova\u0085Ricci',
];

describeEachDatabase('names on one line', (database) => {
  let t: TestApi;
  let artist: TestUser;

  beforeAll(async () => {
    t = await startTestApi({ database: database.name });
    artist = await registerFan(t, 'oneline');
    await makeArtist(t, artist, { yearlyPriceCents: 1000, name: 'One Line' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a display name and an artist’s name: refused with the reason on the field; emoji with joiners pass', async () => {
    const fan = await registerFan(t);
    for (const name of OFF_THE_LINE) {
      const answer = await call(t.url, 'PUT', '/users/me/name', { token: fan.token, body: { name } });
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body.errors).toEqual({ name: [settingsMessages.nameOneLine] });
      const profile = await call(t.url, 'PUT', '/performers/me', {
        token: artist.token,
        body: { name, yearlyPrice: '10', subscriptionPerks: [] },
      });
      expect(profile.status, JSON.stringify(name)).toBe(400);
      expect(profile.body.errors).toEqual({ name: [profileMessages.nameOneLine] });
      const created = NewArtistSchema.safeParse({
        username: 'newartist',
        email: 'new@example.com',
        password: 'Backstage-Pass-1',
        name,
        yearlyPrice: '10',
      });
      expect(created.success).toBe(false);
    }
    // A line break at either end is trimmed away; a name of letters, accents and emoji (with their joiner) is kept.
    const kept = await call(t.url, 'PUT', '/users/me/name', { token: fan.token, body: { name: ' Zoë 👩‍🎤\n' } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    const [row] = await t.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [fan.id]);
    expect(row.name).toBe('Zoë 👩‍🎤');
    const [band] = await t.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [artist.id]);
    expect(band.name).toBe('One Line');
  });

  it('a post’s title, a poll’s question and answers, and a collection’s title: refused on the field', async () => {
    const post = await call(t.url, 'POST', '/content', {
      token: artist.token,
      body: { title: 'Tour\r\ndates', content: 'Hello', tags: 'post' },
    });
    expect(post.status).toBe(400);
    expect(post.body.errors).toMatchObject({ title: [contentMessages.titleOneLine] });
    const poll = await call(t.url, 'POST', '/content', {
      token: artist.token,
      body: {
        title: 'Vote',
        content: 'Hello',
        tags: 'poll',
        poll: { enabled: true, title: 'Which\nsong?', answers: [{ text: 'A' }, { text: 'B\tside' }] },
      },
    });
    expect(poll.status).toBe(400);
    expect(JSON.stringify(poll.body.errors)).toContain(contentMessages.pollTitleOneLine);
    expect(JSON.stringify(poll.body.errors)).toContain(contentMessages.pollAnswerOneLine);
    const collection = await call(t.url, 'POST', '/collections', { token: artist.token, body: { title: 'Live\u2029sets' } });
    expect(collection.status).toBe(400);
    expect(collection.body.errors).toMatchObject({ title: [interactionMessages.collectionTitleOneLine] });
    expect(await t.db.query('SELECT 1 FROM content_items WHERE artist_id = $1', [artist.id])).toHaveLength(0);
    // The same texts on one line are fine.
    expect((await call(t.url, 'POST', '/collections', { token: artist.token, body: { title: 'Live sets' } })).status).toBe(201);
  });
});
