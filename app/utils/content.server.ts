import type { Collection, CollectionDetail, Comment, ContentItem, Media, MediaStatus, Page, Poll, PresaleCode } from '#contract/content';
import type { ContentType, SortOrder } from '#contract/content-types';
import { excerpt } from '#contract/content-text';
import type { Cue } from '#contract/transcript';
import { isHttpError, type ApiClient } from './api.server';
import { COMMENTS_PAGE_SIZE } from './content-params';

/** The content pages' calls to the content API (docs/content.md), through the request's api client. */

/** A card's picture: its links and size, not the file's bookkeeping. */
export type CardImage = Pick<Media, 'url' | 'thumbnailUrl' | 'largeUrl' | 'width' | 'height'>;

/**
 * What a card of a list shows of an item (components/content-card.tsx). A list page's loader sends this instead of
 * the whole item: the loader data is written into the page a second time for hydration, and the whole item (the
 * caption's HTML, the artist, the files' bookkeeping, five timestamps) was two thirds of it on a phone's first visit
 * (docs/benchmarks.md). Feed cards carry the caption's first words; vault tiles show none.
 */
export interface CardItem {
  _id: string;
  /** The category: it draws the artwork of an item without a picture (components/item-art.tsx). */
  type: ContentItem['type'];
  typeLabel: string;
  title: string;
  mediaType: ContentItem['mediaType'];
  state: ContentItem['state'];
  publishAt: string;
  image: CardImage | null;
  /** Where the item's file stands while it is not ready (the artist's own cards only: fans see ready items). */
  mediaStatus?: 'processing' | 'failed';
  excerpt: string;
  poll: Poll | null;
  stats: { comments: number };
  /** Search lists only: the title and a matching passage with their matched words marked. */
  highlight?: ContentItem['highlight'];
}

const cardImage = (media: Media): CardImage => ({
  url: media.url,
  thumbnailUrl: media.thumbnailUrl,
  largeUrl: media.largeUrl,
  width: media.width,
  height: media.height,
});

/** The card of an item: its thumbnail, else its own image, as the picture. */
export function toCardItem(item: ContentItem, { withExcerpt }: { withExcerpt: boolean }): CardItem {
  const picture = item.thumbnail ?? (item.media?.kind === 'image' ? item.media : null);
  return {
    _id: item._id,
    type: item.type,
    typeLabel: item.typeLabel,
    title: item.title,
    mediaType: item.mediaType,
    state: item.state,
    publishAt: item.publishAt,
    image: picture ? cardImage(picture) : null,
    ...(item.media && item.media.status !== 'ready' ? { mediaStatus: item.media.status } : {}),
    excerpt: withExcerpt ? excerpt(item.content) : '',
    poll: item.poll,
    stats: item.stats,
    ...(item.highlight ? { highlight: item.highlight } : {}),
  };
}

export function toCardPage(page: Page<ContentItem>, options: { withExcerpt: boolean }): Page<CardItem> {
  return { data: page.data.map((item) => toCardItem(item, options)), total: page.total };
}

/** A list's query parameters as the content api reads them: `types` as one comma-separated value. */
interface ListQuery {
  types?: readonly ContentType[];
  /** Words to search for (title, caption, transcript). */
  q?: string;
  sort?: SortOrder;
  offset?: number;
  limit?: number;
}

const listParams = ({ types, ...rest }: ListQuery) => ({ types: types?.length ? types.join(',') : undefined, ...rest });

const enc = encodeURIComponent;

export async function listContent(api: ApiClient, artistUsername: string, query: ListQuery & { section?: 'vault' | 'posts' }) {
  const body = await api.get<{ data: Page<ContentItem> }>(`/performers/${enc(artistUsername)}/content`, { params: listParams(query) });
  return body.data;
}

/** `handle`: statuses the caller answers itself (the item page sends a lapsed fan's 403 to the subscribe page). */
export async function getItem(api: ApiClient, id: string, handle?: number[]) {
  const body = await api.get<{ data: ContentItem }>(`/content/${enc(id)}`, { handle });
  return body.data;
}

/** An item's transcript lines (empty when it has none). */
export async function getTranscript(api: ApiClient, itemId: string, handle?: number[]) {
  const body = await api.get<{ data: { cues: Cue[] } }>(`/content/${enc(itemId)}/transcript`, { handle });
  return body.data.cues;
}

export async function listComments(api: ApiClient, itemId: string, query: { offset?: number; commentId?: string }, handle?: number[]) {
  const body = await api.get<{ data: Page<Comment> & { offset: number; blockedMessage?: string } }>(`/content/${enc(itemId)}/comments`, {
    params: { offset: query.offset, commentId: query.commentId, limit: COMMENTS_PAGE_SIZE },
    handle,
  });
  return body.data;
}

export async function listCollections(api: ApiClient, artistUsername: string, limit = 12, handle?: number[]) {
  const body = await api.get<{ data: Page<Collection> }>(`/performers/${enc(artistUsername)}/collections`, { params: { limit }, handle });
  return body.data;
}

export async function getCollection(api: ApiClient, id: string, query: ListQuery) {
  const body = await api.get<{ data: CollectionDetail }>(`/collections/${enc(id)}`, { params: listParams(query) });
  return body.data;
}

export async function listBookmarks(api: ApiClient, artistUsername: string, query: ListQuery) {
  const body = await api.get<{ data: Page<ContentItem> }>('/bookmarks', { params: { performer: artistUsername, ...listParams(query) } });
  return body.data;
}

/** The fan's own presale code; null for the artist (who has none) or when the API has none to give. */
export async function getPresaleCode(api: ApiClient, itemId: string): Promise<PresaleCode | null> {
  try {
    const body = await api.get<{ data: PresaleCode }>(`/content/${enc(itemId)}/presale-code`, { handle: [403, 404] });
    return body.data;
  } catch (error) {
    if (isHttpError(error, 403, 404)) return null;
    throw error;
  }
}

export interface PresaleCodeHolder extends PresaleCode {
  fan: { _id: string; username: string; name: string; avatar: string };
}

/**
 * The artist's view of a presale's codes: the most recent ones, or the one a fan or ticket seller reported
 * (looked up case-insensitively), each with the fan it was made for.
 */
export async function listPresaleCodes(api: ApiClient, itemId: string, code: string | undefined) {
  const body = await api.get<{ data: Page<PresaleCodeHolder> }>(`/content/${enc(itemId)}/presale-codes`, {
    params: { code: code || undefined, limit: 20 },
  });
  return body.data;
}

// The artist's own items, as the studio reads them (with drafts, schedules and the files' processing).

export type MediaKind = 'image' | 'audio' | 'video';

export interface MediaItem {
  _id: string;
  kind: MediaKind;
  mime: string;
  size: number;
  /** Audio and video are processed after upload (docs/media.md): the artist is shown where each stands. */
  status: MediaStatus;
  failureReason: string | null;
  url: string;
  thumbnailUrl: string | null;
}

export interface OwnContentItem {
  _id: string;
  type: ContentType;
  typeLabel: string;
  title: string;
  content: string;
  mediaType: 'audio' | 'video' | 'photo' | 'post';
  state: 'draft' | 'scheduled' | 'published';
  publishAt: string;
  createdAt: string;
  updatedAt: string;
  schedule?: { enabled: boolean; date: string; time: string };
  thumbnail: MediaItem | null;
  media: MediaItem | null;
  poll: {
    _id: string;
    title: string;
    answers: { _id: string; text: string; votes: number | null }[];
    closesAt: string | null;
  } | null;
  presale: { ticketUrl: string; saleStartsAt: string | null; saleEndsAt: string | null } | null;
}

/** One of the artist's own items; an unknown one (or one the viewer may not see) is the 404 page. */
export async function getContent(api: ApiClient, id: string) {
  try {
    const answer = await api.get<{ data: OwnContentItem }>(`/content/${enc(id)}`, { handle: [400] });
    return answer.data;
  } catch (error) {
    if (isHttpError(error, 400)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

/**
 * The artist's own items in one state (or in every state), newest first (the scheduled ones soonest first), those
 * matching `q` if it is given.
 */
export async function listOwnContent(
  api: ApiClient,
  username: string,
  state: OwnContentItem['state'] | undefined,
  { limit = 50, offset = 0, q }: { limit?: number; offset?: number; q?: string } = {},
) {
  const answer = await api.get<{ data: { data: OwnContentItem[]; total: number } }>(`/performers/${enc(username)}/content`, {
    params: { state, limit, offset, q: q || undefined, sort: state === 'scheduled' ? 'asc' : 'desc' },
  });
  return answer.data;
}
