import { json, redirect } from '@remix-run/node';
import { apiRequest, isHttpError } from './api.server';
import { logoutRedirect, requireUser, safeRedirect } from './auth.server';
import { COMMENTS_PAGE_SIZE } from './content-params';
import type { Collection, Comment, ContentItem, Media, Page, Poll, PresaleCode } from '#contract/content';
import type { ContentType, SortOrder } from '#contract/content-types';
import { excerpt } from '#contract/content-text';
import { CommentSchema } from '#contract/content-schemas';
import { parseGuardedForm } from './form-guard.server';

/**
 * The content pages' calls to the content API (docs/content.md), made with the viewer's session token, and the
 * one action every content page shares (vote, comment, delete a comment, bookmark).
 */

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
  typeLabel: string;
  title: string;
  mediaType: ContentItem['mediaType'];
  state: ContentItem['state'];
  publishAt: string;
  image: CardImage | null;
  excerpt: string;
  poll: Poll | null;
  stats: { comments: number };
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
    typeLabel: item.typeLabel,
    title: item.title,
    mediaType: item.mediaType,
    state: item.state,
    publishAt: item.publishAt,
    image: picture ? cardImage(picture) : null,
    excerpt: withExcerpt ? excerpt(item.content) : '',
    poll: item.poll,
    stats: item.stats,
  };
}

/** The cards of a shared list page (frozen: see `listContent`), made once per page and per kind of card, and frozen too. */
const cardPages = { feed: new WeakMap<Page<ContentItem>, Page<CardItem>>(), grid: new WeakMap<Page<ContentItem>, Page<CardItem>>() };

export function toCardPage(page: Page<ContentItem>, options: { withExcerpt: boolean }): Page<CardItem> {
  const make = () => ({ data: page.data.map((item) => toCardItem(item, options)), total: page.total });
  if (!Object.isFrozen(page)) return make();
  const made = cardPages[options.withExcerpt ? 'feed' : 'grid'];
  let cards = made.get(page);
  if (!cards) {
    cards = make();
    cards.data.forEach((card) => Object.freeze(card));
    Object.freeze(cards.data);
    made.set(page, Object.freeze(cards));
  }
  return cards;
}

interface Call {
  token: string;
  signal: AbortSignal;
}

/**
 * Turns the API's refusals into what a page does: 401 → sign in again, 403 (not subscribed) → the subscribe page,
 * 404 → the not-found page. Anything else is the generic error page.
 */
export function contentFailure(error: unknown, request: Request, artistUsername: string): never {
  if (isHttpError(error, 401)) throw logoutRedirect(request, artistUsername);
  if (isHttpError(error, 403)) throw redirect(safeRedirect(`/${artistUsername}/subscribe`));
  if (isHttpError(error, 404, 400)) throw new Response('Not found', { status: 404 });
  throw error;
}

/** The signed-in viewer's token and the artist of the URL, for a content page's loader or action. */
export async function contentViewer(request: Request, params: { artistUsername?: string }) {
  const artistUsername = params.artistUsername;
  if (!artistUsername) throw new Response('Not found', { status: 404 });
  const { user, token } = await requireUser(request, artistUsername);
  return { user, token, artistUsername, call: { token, signal: request.signal } satisfies Call };
}

export async function listContent(
  artistUsername: string,
  query: { types?: ContentType[]; section?: 'vault' | 'posts'; sort?: SortOrder; offset?: number; limit?: number },
  { token, signal }: Call,
) {
  const body = await apiRequest<{ data: Page<ContentItem> }>({
    path: `/performers/${encodeURIComponent(artistUsername)}/content`,
    params: {
      types: query.types?.length ? query.types.join(',') : undefined,
      section: query.section,
      sort: query.sort,
      offset: query.offset,
      limit: query.limit,
    },
    token,
    signal,
    // Viewers who marked nothing in a list are sent the same answer: they share one parsed page (and its cards).
    shared: true,
  });
  return body.data;
}

export async function getItem(id: string, { token, signal }: Call) {
  const body = await apiRequest<{ data: ContentItem }>({ path: `/content/${encodeURIComponent(id)}`, token, signal });
  return body.data;
}

export async function listComments(itemId: string, query: { offset?: number; commentId?: string }, { token, signal }: Call) {
  const body = await apiRequest<{ data: Page<Comment> & { offset: number } }>({
    path: `/content/${encodeURIComponent(itemId)}/comments`,
    params: { offset: query.offset, commentId: query.commentId, limit: COMMENTS_PAGE_SIZE },
    token,
    signal,
  });
  return body.data;
}

export async function listCollections(artistUsername: string, { token, signal }: Call, limit = 12) {
  const body = await apiRequest<{ data: Page<Collection> }>({
    path: `/performers/${encodeURIComponent(artistUsername)}/collections`,
    params: { limit },
    token,
    signal,
  });
  return body.data;
}

export async function getCollection(
  id: string,
  query: { types?: ContentType[]; sort?: SortOrder; offset?: number; limit?: number },
  { token, signal }: Call,
) {
  const body = await apiRequest<{ data: Collection & { items: Page<ContentItem> } }>({
    path: `/collections/${encodeURIComponent(id)}`,
    params: {
      types: query.types?.length ? query.types.join(',') : undefined,
      sort: query.sort,
      offset: query.offset,
      limit: query.limit,
    },
    token,
    signal,
  });
  return body.data;
}

export async function listBookmarks(
  artistUsername: string,
  query: { types?: ContentType[]; sort?: SortOrder; offset?: number; limit?: number },
  { token, signal }: Call,
) {
  const body = await apiRequest<{ data: Page<ContentItem> }>({
    path: '/bookmarks',
    params: {
      performer: artistUsername,
      types: query.types?.length ? query.types.join(',') : undefined,
      sort: query.sort,
      offset: query.offset,
      limit: query.limit,
    },
    token,
    signal,
  });
  return body.data;
}

/** The fan's own presale code; null for the artist (who has none) or when the API has none to give. */
export async function getPresaleCode(itemId: string, { token, signal }: Call): Promise<PresaleCode | null> {
  try {
    const body = await apiRequest<{ data: PresaleCode }>({ path: `/content/${encodeURIComponent(itemId)}/presale-code`, token, signal });
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
export async function listPresaleCodes(itemId: string, code: string | undefined, { token, signal }: Call) {
  const body = await apiRequest<{ data: Page<PresaleCodeHolder> }>({
    path: `/content/${encodeURIComponent(itemId)}/presale-codes`,
    params: { code: code || undefined, limit: 20 },
    token,
    signal,
  });
  return body.data;
}

/** What a content page's action returns when the API (or the form) refuses: the message on its field. */
export interface ContentActionData {
  intent: string;
  /** Which item or poll the error belongs to, so a feed of several shows it in the right place. */
  target?: string;
  fieldErrors: Record<string, string[]>;
  formError?: string;
}

export const CONTENT_INTENTS = ['vote', 'comment', 'delete-comment', 'bookmark', 'revoke-code'] as const;

/**
 * The action of every content page: `intent` says which plain form was sent. Success redirects back to the
 * same page (post/redirect/get) at the part that changed; a refusal returns the API's message on its field.
 */
export async function contentAction(request: Request, params: { artistUsername?: string }) {
  const { token, artistUsername } = await contentViewer(request, params);
  const formData = await request.formData();
  const intent = String(formData.get('intent') ?? '');
  const itemId = String(formData.get('itemId') ?? '');
  const url = new URL(request.url);
  const back = (hash: string) => redirect(safeRedirect(`${url.pathname}${url.search}${hash}`), 303);
  const fail = (error: unknown, fallbackField: string, target?: string) => {
    if (isHttpError(error, 401)) throw logoutRedirect(request, artistUsername);
    // 503: the api is up but its database is not; the form says so and keeps what was typed.
    if (isHttpError(error) && (error.status < 500 || error.status === 503)) {
      const fieldErrors = Object.keys(error.fieldErrors).length ? error.fieldErrors : { [fallbackField]: [error.message] };
      return json<ContentActionData>({ intent, target, fieldErrors }, { status: error.status });
    }
    throw error;
  };

  if (intent === 'vote') {
    const pollId = String(formData.get('pollId') ?? '');
    try {
      await apiRequest({
        method: 'POST',
        path: `/polls/${encodeURIComponent(pollId)}/vote`,
        body: { answerId: String(formData.get('answerId') ?? '') },
        token,
        signal: request.signal,
      });
    } catch (error) {
      return fail(error, 'answerId', pollId);
    }
    return back(`#poll-${pollId}`);
  }

  if (intent === 'comment') {
    const submission = parseGuardedForm(formData, CommentSchema);
    if (submission.status !== 'success') {
      return json<ContentActionData>({ intent, target: itemId, fieldErrors: submission.error as Record<string, string[]> }, { status: 400 });
    }
    let created: { _id: string };
    try {
      const body = await apiRequest<{ data: { _id: string } }>({
        method: 'POST',
        path: `/content/${encodeURIComponent(itemId)}/comments`,
        body: submission.value,
        token,
        signal: request.signal,
      });
      created = body.data;
    } catch (error) {
      return fail(error, 'text', itemId);
    }
    // Back to the first page of comments, where the newest one is.
    url.searchParams.delete('commentsOffset');
    url.searchParams.delete('commentId');
    return redirect(safeRedirect(`${url.pathname}${url.search}#comment-${created._id}`), 303);
  }

  if (intent === 'delete-comment') {
    const commentId = String(formData.get('commentId') ?? '');
    try {
      await apiRequest({ method: 'DELETE', path: `/comments/${encodeURIComponent(commentId)}`, token, signal: request.signal });
    } catch (error) {
      return fail(error, 'comments', itemId);
    }
    if (url.searchParams.get('commentId') === commentId) url.searchParams.delete('commentId');
    return redirect(safeRedirect(`${url.pathname}${url.search}#comments`), 303);
  }

  if (intent === 'bookmark') {
    const add = formData.get('bookmarked') === 'true';
    try {
      await apiRequest({
        method: add ? 'POST' : 'DELETE',
        path: `/content/${encodeURIComponent(itemId)}/bookmark`,
        token,
        signal: request.signal,
      });
    } catch (error) {
      return fail(error, 'bookmark', itemId);
    }
    return back(`#item-${itemId}`);
  }

  if (intent === 'revoke-code') {
    const codeId = String(formData.get('codeId') ?? '');
    try {
      await apiRequest({
        method: 'DELETE',
        path: `/content/${encodeURIComponent(itemId)}/presale-codes/${encodeURIComponent(codeId)}`,
        token,
        signal: request.signal,
      });
    } catch (error) {
      return fail(error, 'presaleCodes', itemId);
    }
    return back('#presale-codes');
  }

  throw new Response('Bad request', { status: 400 });
}
