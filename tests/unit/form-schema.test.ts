import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { formConstraint, parseForm } from '../../app/utils/form-schema';
import { ArtistProfileSchema, profileMessages } from '#contract/artist-profile';
import { createPostFormSchema } from '../../app/utils/content-form';
import { CollectionSchema } from '#contract/content-schemas';
import { CommentSchema } from '#contract/comment-schema';
import { TestCardFormSchema } from '#contract/payment-schemas';
import { LoginSchema, messages, RegisterSchema, ResetPasswordSchema, ResetRequestSchema } from '#contract/accounts';

/**
 * parseForm and formConstraint stand in for conform's parseWithZod and getZodConstraint on every form a page
 * validates (the schemas are written with zod/mini): their answers must be the ones conform's adapter gives for the
 * same schema and form data, with its coercion of checkboxes, lists and files.
 */
const form = (entries: Record<string, string | File>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
};

const now = () => new Date('2025-06-15T12:00:00Z');
const textPost = createPostFormSchema('text', { now });
const collectionForm = z.pick(CollectionSchema, { title: true, description: true });

const cases: Array<[string, z.ZodMiniObject, Record<string, string | File>]> = [
  ['log-in, empty', LoginSchema, { usernameOrEmail: '', password: '' }],
  ['log-in, no fields at all', LoginSchema, {}],
  ['log-in, bad email', LoginSchema, { usernameOrEmail: 'fan', password: 'x' }],
  ['log-in, good', LoginSchema, { usernameOrEmail: ' Fan@Example.com ', password: 'secret', redirectTo: '/discover' }],
  ['register, every rule', RegisterSchema, { username: 'a!', email: 'fan@', password: 'short' }],
  ['register, good', RegisterSchema, { username: ' NightOwl ', email: 'fan@example.com', password: 'Backstage-Pass-1' }],
  ['reset, passwords differ', ResetPasswordSchema, { password: 'Backstage-Pass-1', confirmPassword: 'Backstage-Pass-2' }],
  ['reset, confirmation empty', ResetPasswordSchema, { password: 'Backstage-Pass-1', confirmPassword: '' }],
  ['card, empty', TestCardFormSchema, { number: '', expiry: '', cvc: '', promo: '' }],
  ['card, wrong', TestCardFormSchema, { number: '4242 4242 4242 4241', expiry: '13/30', cvc: '12345' }],
  ['card, good', TestCardFormSchema, { number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', promo: '', idempotencyKey: 'k' }],
  ['text post, empty', textPost, { title: '', content: '', tags: '', 'poll.title': '', 'schedule.date': '', 'schedule.time': '' }],
  [
    'text post, poll and schedule on with mistakes',
    textPost,
    {
      title: 'Set list',
      content: '<p>Vote</p>',
      tags: 'poll',
      'poll.enabled': 'on',
      'poll.title': '',
      'poll.answers[0].text': 'Opener',
      'poll.answers[1].text': ' ',
      'schedule.enabled': 'on',
      'schedule.date': '15/06/2025',
      'schedule.time': '12:05',
    },
  ],
  [
    'text post, good, with a poll, a schedule and an empty thumbnail',
    textPost,
    {
      title: ' Set list ',
      content: '<p>Vote</p>',
      tags: 'poll',
      'poll.enabled': 'on',
      'poll.title': 'Which opener?',
      'poll.answers[0].id': 'a1',
      'poll.answers[0].text': 'Opener',
      'poll.answers[1].id': '',
      'poll.answers[1].text': 'Closer',
      'schedule.enabled': 'on',
      'schedule.date': '16/06/2025',
      'schedule.time': '08:30',
      thumbnail: new File([], ''),
      thumbnailId: '',
    },
  ],
  [
    'vault item with its file and a removed thumbnail',
    createPostFormSchema('vault', { now }),
    {
      title: 'Demo',
      content: '<p>Rough</p>',
      tags: 'demo',
      media: new File(['x'], 'demo.mp3', { type: 'audio/mpeg' }),
      removeThumbnail: 'on',
      'poll.title': '',
    },
  ],
  ['vault item without its file', createPostFormSchema('vault', { now }), { title: 'Demo', content: '<p>Rough</p>', tags: 'demo' }],
  ['comment, blank', CommentSchema, { text: '   ' }],
  ['comment', CommentSchema, { text: ' Great show ' }],
  ['collection, no title', collectionForm, { title: '', description: '' }],
  ['collection', collectionForm, { title: 'Tour 2026', description: ' Every night ' }],
];

describe('formConstraint', () => {
  it.each<[string, z.ZodMiniObject]>([
    ['log-in', LoginSchema],
    ['register', RegisterSchema],
    ['reset request', ResetRequestSchema],
    ['reset', ResetPasswordSchema],
    ['test card', TestCardFormSchema],
  ])('%s: the constraints conform’s getZodConstraint gives', (_name, schema) => {
    expect(formConstraint(schema)).toEqual({ ...getZodConstraint(schema) });
  });

  it('marks the optional fields as not required', () => {
    expect(formConstraint(TestCardFormSchema)).toMatchObject({ number: { required: true }, promo: { required: false } });
  });

  it('leaves the profile form’s perks and welcome-video switch optional (conform marks both required, so without JavaScript the browser refused the form until both were filled in)', () => {
    expect(getZodConstraint(ArtistProfileSchema)).toMatchObject({
      subscriptionPerks: { required: true },
      activateWelcomeVideo: { required: true },
    });
    expect(formConstraint(ArtistProfileSchema)).toMatchObject({
      name: { required: true },
      yearlyPrice: { required: true },
      bio: { required: false },
      subscriptionPerks: { required: false },
      activateWelcomeVideo: { required: false },
    });
  });
});

describe('parseForm', () => {
  it.each(cases)('%s: the same status, value, errors and reply as conform’s parseWithZod', (_name, schema, entries) => {
    const ours = parseForm(form(entries), schema);
    const conforms = parseWithZod(form(entries), { schema });
    expect(ours.status).toBe(conforms.status);
    expect(ours.status === 'success' ? ours.value : ours.error).toEqual(conforms.status === 'success' ? conforms.value : conforms.error);
    expect(ours.reply({ hideFields: ['password'] })).toEqual(conforms.reply({ hideFields: ['password'] }));
  });

  it('reports an empty field with its "required" message, and reads the values the schema gives back', () => {
    const empty = parseForm(form({ usernameOrEmail: '', password: '' }), LoginSchema);
    expect(empty.status).toBe('error');
    expect(empty.status !== 'success' && empty.error).toEqual({
      usernameOrEmail: [messages.emailRequired],
      password: [messages.passwordRequired],
    });
    const card = parseForm(form({ number: '4242-4242-4242-4242', expiry: '1/30', cvc: ' 123 ' }), TestCardFormSchema);
    expect(card.status === 'success' && card.value).toEqual({
      number: '4242424242424242',
      expiry: { expMonth: 1, expYear: 2030 },
      cvc: '123',
    });
  });

  it('reads the profile form as its schema says: one perk a line (conform’s coercion kept the whole text as one perk)', () => {
    const good = parseForm(
      form({
        name: ' Nova ',
        bio: '',
        yearlyPrice: '49.90',
        subscriptionPerks: 'Early tickets\r\n\r\n Demos ',
        activateWelcomeVideo: 'on',
      }),
      ArtistProfileSchema,
    );
    expect(good.status === 'success' && good.value).toMatchObject({
      name: 'Nova',
      bio: '',
      yearlyPrice: 49.9,
      subscriptionPerks: ['Early tickets', 'Demos'],
      activateWelcomeVideo: true,
    });
    const bad = parseForm(
      form({ name: '', yearlyPrice: '49.999', subscriptionPerks: 'abcdefghijk'.split('').join('\n') }),
      ArtistProfileSchema,
    );
    expect(bad.status !== 'success' && bad.error).toEqual({
      name: [profileMessages.name],
      yearlyPrice: [profileMessages.price],
      subscriptionPerks: [profileMessages.perks],
    });
  });

  it('names nested fields as conform does, and treats an empty file as missing', () => {
    const schema = z.object({
      answers: z.array(z.string().check(z.minLength(2, { error: 'too short' }))),
      poll: z.object({ title: z.string({ error: 'title missing' }) }),
      picture: z.optional(z.file()),
    });
    const data = form({ 'answers[0]': 'ok', 'answers[1]': 'x', 'poll.title': '' });
    data.append('picture', new File([], ''));
    const submission = parseForm(data, schema);
    expect(submission.status !== 'success' && submission.error).toEqual({ 'answers[1]': ['too short'], 'poll.title': ['title missing'] });
  });
});
