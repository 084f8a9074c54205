import { describe, expect, it } from 'vitest';
import {
  categoriesFor,
  createPostFormSchema,
  formKindFor,
  gmtInputToIso,
  isoToGmtInput,
  postBody,
  postFormMessages,
} from '~/utils/content-form';
import { formFieldErrors, placeFieldErrors, successPath } from '~/utils/content-create.server';
import { contentMessages, createPostBodySchema, presaleMessages } from '#contract/content-schemas';

const now = () => new Date('2026-06-17T13:45:00Z');
const errors = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('the creation forms', () => {
  it('needs the photo on an image post and the file on a vault item, by upload or by a kept id', () => {
    const image = createPostFormSchema('image', { now });
    expect(errors(image.safeParse({ title: 'T', content: 'C' }))).toEqual({ media: postFormMessages.photoRequired });
    expect(image.safeParse({ title: 'T', content: 'C', mediaId: 'm1' }).success).toBe(true);
    const vault = createPostFormSchema('vault', { now });
    expect(errors(vault.safeParse({ title: 'T', content: 'C', tags: 'demo' }))).toEqual({ media: postFormMessages.mediaRequired });
    expect(errors(vault.safeParse({ title: 'T', content: 'C', tags: 'photo', mediaId: 'm1' }))).toEqual({
      tags: contentMessages.tagsRequired,
    });
  });

  it('asks a ticket presale for its link, and only a presale', () => {
    const text = createPostFormSchema('text', { now });
    expect(text.safeParse({ title: 'T', content: 'C', tags: 'post' }).success).toBe(true);
    expect(errors(text.safeParse({ title: 'T', content: 'C', tags: 'ticketPresale' }))).toEqual({
      'presale.ticketUrl': presaleMessages.ticketUrlRequired,
    });
    const presale = { ticketUrl: 'https://tickets.example.com/x', saleStartsAt: '2026-07-01T10:00', saleEndsAt: '2026-07-01T09:00' };
    expect(errors(text.safeParse({ title: 'T', content: 'C', tags: 'ticketPresale', presale }))).toEqual({
      'presale.saleEndsAt': presaleMessages.saleEndsBeforeStart,
    });
  });

  it('builds the api body: the category, the draft flag, the files and the presale window in UTC', () => {
    const text = createPostFormSchema('text', { now }).parse({
      title: 'T',
      content: 'C',
      tags: 'ticketPresale',
      presale: { ticketUrl: 'https://tickets.example.com/x', saleStartsAt: '2026-07-01T10:00' },
      thumbnailId: 't1',
      poll: { enabled: false, title: 'kept', answers: [{ text: 'a' }] },
      schedule: { enabled: true, date: '18/06/2026', time: '09:00' },
    });
    expect(postBody('text', text, true)).toEqual({
      title: 'T',
      content: 'C',
      tags: 'ticketPresale',
      poll: { enabled: false, answers: [] },
      schedule: { enabled: true, date: '18/06/2026', time: '09:00' },
      draft: true,
      thumbnailId: 't1',
      mediaId: null,
      presale: { ticketUrl: 'https://tickets.example.com/x', saleStartsAt: '2026-07-01T10:00Z', saleEndsAt: null },
    });
    const photo = createPostFormSchema('image', { now }).parse({ title: 'T', content: 'C', mediaId: 'm1', thumbnailId: 't1' });
    expect(postBody('image', photo, false)).toMatchObject({ tags: 'photo', mediaId: 'm1', thumbnailId: null, presale: null, draft: false });
    const removed = createPostFormSchema('vault', { now }).parse({
      title: 'T',
      content: 'C',
      tags: 'live',
      mediaId: 'm1',
      thumbnailId: 't1',
      removeThumbnail: true,
    });
    expect(postBody('vault', removed, false)).toMatchObject({ tags: 'live', mediaId: 'm1', thumbnailId: null });
  });

  it('reads the presale times as DD/MM/YYYY HH:MM in GMT (and a datetime-local value), and writes them back so', () => {
    expect(gmtInputToIso('01/07/2026 10:00')).toBe('2026-07-01T10:00Z');
    expect(gmtInputToIso(' 1/7/2026 9:05 ')).toBe('2026-07-01T09:05Z');
    expect(gmtInputToIso('2026-07-01T10:00')).toBe('2026-07-01T10:00Z');
    expect(gmtInputToIso('31/02/2026 10:00')).toBe('31/02/2026 10:00');
    expect(gmtInputToIso('')).toBeUndefined();
    expect(isoToGmtInput('2026-07-01T10:00:00.000Z')).toBe('01/07/2026 10:00');
    expect(isoToGmtInput(null)).toBe('');
  });

  it('refuses a presale time that is not a day, with the presale message', () => {
    const text = createPostFormSchema('text', { now });
    const presale = { ticketUrl: 'https://tickets.example.com/x', saleStartsAt: '31/02/2026 10:00' };
    expect(errors(text.safeParse({ title: 'T', content: 'C', tags: 'ticketPresale', presale }))).toEqual({
      'presale.saleStartsAt': presaleMessages.saleDateInvalid,
    });
    const written = { ticketUrl: 'https://tickets.example.com/x', saleStartsAt: '01/07/2026 10:00', saleEndsAt: '01/07/2026 09:00' };
    expect(errors(text.safeParse({ title: 'T', content: 'C', tags: 'ticketPresale', presale: written }))).toEqual({
      'presale.saleEndsAt': presaleMessages.saleEndsBeforeStart,
    });
  });

  it('edits an item with the form that fits it: a written tour diary is text, a recorded one a vault file', () => {
    expect(formKindFor('photo', 'image')).toBe('image');
    expect(formKindFor('voicenote', 'audio')).toBe('vault');
    expect(formKindFor('musicVideo', 'video')).toBe('vault');
    expect(formKindFor('tourDiary', null)).toBe('text');
    expect(formKindFor('demo')).toBe('text');
    expect(formKindFor('announcement')).toBe('text');
  });

  it('offers the text form every category but Photo, and the vault form the nine vault categories', () => {
    expect(categoriesFor('text')).not.toContain('photo');
    expect(categoriesFor('text')).toContain('tourDiary');
    expect(categoriesFor('text')).toHaveLength(13);
    expect(categoriesFor('vault')).toHaveLength(9);
  });

  it('keeps a poll on every form, so editing a vault file or a photo does not drop its votes', () => {
    const poll = { enabled: true, title: 'Name this song', answers: [{ id: 'a1', text: 'Night Bus' }, { text: 'Glass Jaw' }] };
    const sent = { ...poll, closeDate: '', closeTime: '' };
    const vault = createPostFormSchema('vault', { now }).parse({ title: 'T', content: 'C', tags: 'session', mediaId: 'm1', poll });
    expect(postBody('vault', vault, false).poll).toEqual(sent);
    const photo = createPostFormSchema('image', { now }).parse({ title: 'T', content: 'C', mediaId: 'm1', poll });
    expect(postBody('image', photo, false).poll).toEqual(sent);
  });

  it('sends the poll closing time as typed, for the api to read with the same schema', () => {
    const poll = { enabled: 'on', title: 'Q', answers: [{ text: 'a' }, { text: 'b' }], closeDate: ' 20/06/2026 ', closeTime: '18:00' };
    const value = createPostFormSchema('text', { now }).parse({ title: 'T', content: 'C', tags: 'post', poll });
    expect(value.poll.closesAt).toEqual(new Date('2026-06-20T18:00:00Z'));
    const body = postBody('text', value, false);
    expect(body.poll).toEqual({ enabled: true, title: 'Q', answers: poll.answers, closeDate: '20/06/2026', closeTime: '18:00' });
    expect(createPostBodySchema({ now }).parse(body).poll.closesAt).toEqual(value.poll.closesAt);
  });

  it('shows an api field error the form has no field for in the form alert', () => {
    expect(placeFieldErrors('text', { media: ['Please add a photo.'], title: ['t'], 'poll.answers[0].text': ['a'] })).toEqual({
      onForm: { title: ['t'], 'poll.answers[0].text': ['a'] },
      elsewhere: ['Please add a photo.'],
    });
    expect(placeFieldErrors('image', { media: ['m'], tags: ['c'] })).toEqual({ onForm: { media: ['m'] }, elsewhere: ['c'] });
  });

  it('puts the api field errors on the form fields', () => {
    expect(
      formFieldErrors({
        'poll.answers.0.text': ['a'],
        thumbnailId: ['b'],
        mediaId: ['c'],
        type: ['d'],
        title: ['e'],
        'presale.ticketUrl': ['f'],
      }),
    ).toEqual({ 'poll.answers[0].text': ['a'], thumbnail: ['b'], media: ['c'], tags: ['d'], title: ['e'], 'presale.ticketUrl': ['f'] });
  });

  it('sends a saved item to the success page with its state', () => {
    expect(successPath('nova', { _id: 'i1', state: 'published', publishAt: '2026-06-17T13:45:00.000Z' })).toBe(
      '/nova/account/create-text-success?id=i1',
    );
    expect(successPath('nova', { _id: 'i1', state: 'scheduled', publishAt: '2026-06-18T09:00:00.000Z' })).toBe(
      '/nova/account/create-text-success?id=i1&scheduledAt=2026-06-18T09%3A00%3A00.000Z',
    );
    expect(successPath('nova', { _id: 'i1', state: 'draft', publishAt: '2026-06-17T13:45:00.000Z' })).toBe(
      '/nova/account/create-text-success?id=i1&draft=true',
    );
  });
});
