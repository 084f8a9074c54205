import { describe, expect, it } from 'vitest';
import { sharedItemJson, viewItem, viewItemJson, type ItemDetails, type Marks } from '../../api/content/queries';

const ARTIST = 'artist-1';
const FAN = 'fan-1';

function details(withPoll: boolean, state: 'published' | 'scheduled' = 'published'): ItemDetails {
  const publishAt = new Date('2026-11-20T14:05:00Z');
  const row = {
    id: 'item-1',
    artistId: ARTIST,
    artistUsername: 'nova',
    artistName: 'Nova "N" Ricci',
    artistAvatar: '',
    type: 'post' as const,
    title: 'Soundcheck — “notes” \u2028 line',
    content: '<p>Hello <em>there</em> & "you"</p>',
    state,
    scheduled: state === 'scheduled',
    publishAt,
    createdAt: publishAt,
    updatedAt: publishAt,
    thumbnailId: null,
    mediaId: null,
    commentCount: 3,
  };
  const poll = withPoll
    ? {
        poll: { id: 'poll-1', itemId: 'item-1', title: 'Which song?' },
        answers: [
          { id: 'a1', pollId: 'poll-1', text: 'Lighthouse', votes: 4 },
          { id: 'a2', pollId: 'poll-1', text: 'Paper "Boats"', votes: 1 },
        ],
      }
    : null;
  return {
    row,
    poll,
    shown: {
      _id: row.id,
      performerId: ARTIST,
      performer: { _id: ARTIST, username: 'nova', name: row.artistName, avatar: '' },
      type: 'post',
      typeLabel: 'Post',
      title: row.title,
      content: row.content,
      mediaType: 'post',
      state,
      publishAt: publishAt.toISOString(),
      createdAt: publishAt.toISOString(),
      updatedAt: publishAt.toISOString(),
      thumbnail: null,
      media: null,
      presale: null,
      stats: { comments: 3 },
    },
  } as ItemDetails;
}

const noMarks: Marks = { bookmarks: new Set(), votes: new Map() };
const fanMarks: Marks = { bookmarks: new Set(['item-1']), votes: new Map([['poll-1', 'a2']]) };

describe('a hot list answers each viewer from the item’s shared JSON text', () => {
  it.each([
    ['a fan who has not voted', details(true), FAN, noMarks],
    ['a fan who voted and bookmarked', details(true), FAN, fanMarks],
    ['the artist (results and schedule)', details(true, 'scheduled'), ARTIST, noMarks],
    ['an item without a poll', details(false), FAN, fanMarks],
  ])('gives %s the same answer as serialising the item for them', (_who, item, viewer, marks) => {
    const text = viewItemJson(item, sharedItemJson(item), viewer, marks);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(viewItem(item, viewer, marks))));
    expect(text).toBe(JSON.stringify(viewItem(item, viewer, marks)));
  });
});
