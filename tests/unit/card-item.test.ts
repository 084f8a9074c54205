import { describe, expect, it } from 'vitest';
import type { ContentItem, Media } from '#contract/content';
import { toCardItem, toCardPage } from '../../app/utils/content.server';

const media = (kind: Media['kind'], id: string): Media => ({
  _id: id,
  kind,
  mime: kind === 'image' ? 'image/jpeg' : 'audio/mpeg',
  size: 1234,
  status: 'ready',
  failureReason: null,
  duration: kind === 'audio' ? 61 : null,
  mimeType: kind === 'image' ? 'image/jpeg' : 'audio/mp4',
  peaks: null,
  poster: null,
  originalUrl: null,
  fallbackUrl: null,
  width: kind === 'image' ? 1600 : null,
  height: kind === 'image' ? 1067 : null,
  url: `https://api.example/media/${id}?sig=a`,
  thumbnailUrl: kind === 'image' ? `https://api.example/media/${id}?size=thumb&sig=b` : null,
  largeUrl: kind === 'image' ? `https://api.example/media/${id}?size=large&sig=c` : null,
});

const item = (over: Partial<ContentItem> = {}): ContentItem => ({
  _id: 'item-1',
  performerId: 'artist-1',
  performer: { _id: 'artist-1', username: 'thelatenights', name: 'The Late Nights', avatar: '/a.svg' },
  type: 'post',
  typeLabel: 'Post',
  title: 'Soundcheck notes',
  content: '<p>We kept <strong>one</strong> take.</p><script>x()</script>',
  mediaType: 'post',
  state: 'published',
  publishAt: '2026-11-23T10:00:00.000Z',
  createdAt: '2026-11-23T10:00:00.000Z',
  updatedAt: null,
  thumbnail: null,
  media: null,
  poll: null,
  presale: null,
  stats: { comments: 2 },
  isBookmarked: true,
  ...over,
});

describe('the card of a list item (what a list page sends to the browser)', () => {
  it('keeps what a card shows and nothing else', () => {
    const card = toCardItem(item(), { withExcerpt: true });
    expect(Object.keys(card).sort()).toEqual([
      '_id',
      'excerpt',
      'image',
      'mediaType',
      'poll',
      'publishAt',
      'state',
      'stats',
      'title',
      'type',
      'typeLabel',
    ]);
    expect(card.excerpt).toBe('We kept one take.');
    expect(JSON.stringify(card)).not.toContain('thelatenights');
  });

  it('carries the caption only for feed cards', () => {
    expect(toCardItem(item(), { withExcerpt: false }).excerpt).toBe('');
  });

  it('pictures the thumbnail, else the item’s own image, with links and size only', () => {
    const thumb = media('image', 'thumb');
    expect(toCardItem(item({ thumbnail: thumb, media: media('image', 'own') }), { withExcerpt: false }).image).toEqual({
      url: thumb.url,
      thumbnailUrl: thumb.thumbnailUrl,
      largeUrl: thumb.largeUrl,
      width: 1600,
      height: 1067,
    });
    expect(toCardItem(item({ media: media('image', 'own') }), { withExcerpt: false }).image?.url).toContain('/media/own');
    expect(toCardItem(item({ media: media('audio', 'song'), mediaType: 'audio' }), { withExcerpt: false }).image).toBeNull();
  });

  it('keeps the page’s total', () => {
    expect(toCardPage({ data: [item(), item({ _id: 'item-2' })], total: 7 }, { withExcerpt: false })).toMatchObject({
      total: 7,
      data: [{ _id: 'item-1' }, { _id: 'item-2' }],
    });
  });
});

describe('formatDay (kept per timestamp)', () => {
  it('writes a day as Intl does, in UTC, every time and past what it keeps', async () => {
    const { formatDay } = await import('../../app/components/content-card');
    const intl = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    expect(formatDay('2026-11-23T23:59:59.000Z')).toBe('23 Nov 2026');
    expect(formatDay('2026-11-24T00:00:00.000Z')).toBe('24 Nov 2026');
    for (let i = 0; i < 2500; i++) {
      const iso = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000 + 3_600_000).toISOString();
      expect(formatDay(iso)).toBe(intl.format(new Date(iso)));
      expect(formatDay(iso)).toBe(intl.format(new Date(iso)));
    }
    expect(formatDay('2026-11-23T23:59:59.000Z')).toBe('23 Nov 2026');
  });
});
