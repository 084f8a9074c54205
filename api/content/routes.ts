import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { POSTS_TYPES, VAULT_CATEGORIES, type ContentType } from '#contract/content-types';
import { listeningMessages } from '#contract/listening';
import { SEARCH_MAX } from '#contract/search';
import {
  CaptionSchema,
  contentMessages,
  createPostBodySchema,
  isPollClosed,
  presaleMessages,
  type PostBodyValue,
} from '#contract/content-schemas';
import type { Viewer } from '../auth/viewer.js';
import { one, type Queryable } from '../db/client.js';
import { ApiError, fieldErrors, ok, okJsonBody, parse, sendJsonBody, type FieldErrors } from '../http.js';
import { findMediaByIds, forViewer, removeUnusedMedia } from '../media/queries.js';
import { findArtistId, requireArtist, requireContentAccess } from './access.js';
import { requireOwnItem, requireReadableItem } from './guard.js';
import { paging, listParam, SortParam, TypesParam } from './params.js';
import { tag } from '../cache/tags.js';
import {
  findItem,
  itemDetails,
  listItems,
  loadMarks,
  nextPublication,
  serializeItems,
  sharedItemJson,
  viewerKey,
  viewItem,
  viewItemJson,
  type ItemRow,
} from './queries.js';
import { sanitizeCaption } from './sanitize.js';
import { announceWhenVisible } from '../notifications/fanout.js';
import type { ContentServices } from './services.js';

const ListQuery = z.object({
  types: TypesParam,
  /** Without types: vault lists the nine vault categories, posts the posts page's types. */
  section: z.enum(['vault', 'posts']).optional(),
  /** The artist's own view only: draft, scheduled or published. */
  state: listParam(z.enum(['draft', 'scheduled', 'published'], { error: 'Unknown state.' })),
  sort: SortParam,
  /** Words to find in the title, caption and transcript. */
  q: z
    .string()
    .trim()
    .max(SEARCH_MAX, { error: listeningMessages.searchTooLong })
    .optional()
    .transform((value) => value || undefined),
  ...paging,
});

type ListQueryValues = z.output<typeof ListQuery>;

/**
 * A list's query, parsed once per distinct query string: a crowd asks for the same few lists, and zod's parse was a
 * tenth of the handler. Only valid queries are kept (an invalid one throws its 400 every time), at most 1,000.
 */
const listQueries = new LRUCache<string, Readonly<ListQueryValues>>({ max: 1000 });

function listQuery(url: string, query: unknown): Readonly<ListQueryValues> {
  const at = url.indexOf('?');
  const search = at < 0 ? '' : url.slice(at);
  let parsed = listQueries.get(search);
  if (!parsed) {
    parsed = parse(ListQuery, query);
    for (const value of Object.values(parsed)) if (Array.isArray(value)) Object.freeze(value);
    listQueries.set(search, Object.freeze(parsed));
  }
  return parsed;
}

/**
 * The finished answers of hot lists, at most this many bytes in all (the least used go first). Bounded as a whole:
 * paging makes as many lists as anyone asks for, and marks as many answers to each as there are viewers.
 */
const LIST_BODIES_BYTES = 32 * 1024 * 1024;

interface SavedItem {
  id: string;
  state: string;
  publishAt: Date;
  notifiedAt: Date | null;
  mediaPending: boolean;
}

export const itemMessages = {
  mediaMissing: 'This file was not found. Please upload it again.',
  thumbnailNotImage: 'The thumbnail must be an image.',
  photoRequired: 'Please add a photo.',
} as const;

/** The post form's rules read the clock when a request arrives (a schedule must be at least 10 minutes ahead). */
const PostBody = createPostBodySchema();

/** The body of POST and PUT /content; `type` is accepted as another name for the form's `tags`. */
function readPostBody(body: unknown): PostBodyValue {
  const input = body && typeof body === 'object' ? { ...(body as Record<string, unknown>) } : {};
  if (input.tags === undefined && input.type !== undefined) input.tags = input.type;
  delete input.type;
  return parse(PostBody, input);
}

function invalid(errors: FieldErrors): never {
  const first = Object.values(errors)[0]?.[0] ?? 'Invalid request';
  throw new ApiError(400, first, errors);
}

/** What the item's files must be: the artist's own uploads, an image for the thumbnail, and an image for a photo. */
async function checkMedia(db: Queryable, viewer: Viewer, body: PostBodyValue) {
  const media = await findMediaByIds(
    db,
    [body.thumbnailId, body.mediaId].filter((id): id is string => Boolean(id)),
  );
  const errors: FieldErrors = {};
  const thumbnail = body.thumbnailId ? media.get(body.thumbnailId) : undefined;
  const file = body.mediaId ? media.get(body.mediaId) : undefined;
  if (body.thumbnailId && (!thumbnail || thumbnail.ownerId !== viewer.id)) errors.thumbnailId = [itemMessages.mediaMissing];
  else if (thumbnail && thumbnail.kind !== 'image') errors.thumbnailId = [itemMessages.thumbnailNotImage];
  if (body.mediaId && (!file || file.ownerId !== viewer.id)) errors.mediaId = [itemMessages.mediaMissing];
  else if (body.tags === 'photo' && file?.kind !== 'image') errors.mediaId = [itemMessages.photoRequired];
  if (body.tags === 'ticketPresale' && !body.presale) errors['presale.ticketUrl'] = [presaleMessages.ticketUrlRequired];
  if (Object.keys(errors).length) invalid(errors);
}

/**
 * A closing time that has passed is kept only as the poll already had it (an edit of a closed poll); the schema let
 * it through on the form's word (`closesKept`), so the stored poll is asked.
 */
async function checkPollClosing(db: Queryable, body: PostBodyValue, existing: ItemRow | undefined) {
  const closesAt = body.poll.enabled ? body.poll.closesAt : undefined;
  if (!closesAt || !isPollClosed(closesAt)) return;
  const kept = existing
    ? await one<{ closesAt: Date | null }>(db, 'SELECT closes_at AS "closesAt" FROM polls WHERE item_id = $1', [existing.id])
    : undefined;
  if (!kept?.closesAt || new Date(kept.closesAt).getTime() !== closesAt.getTime())
    invalid({ 'poll.closeTime': [contentMessages.pollClosesInPast] });
}

/**
 * Where an item stands after a save. A draft keeps the schedule it was given; publishing now keeps the original
 * date of an item that was already published (an edit does not bump it to the top); a schedule sets the time.
 */
function publication(body: PostBodyValue, existing: ItemRow | undefined) {
  const at = body.schedule.enabled ? (body.schedule.at ?? null) : null;
  if (body.draft) return { state: 'draft' as const, scheduled: body.schedule.enabled, publishAt: at };
  if (at) return { state: 'scheduled' as const, scheduled: true, publishAt: at };
  const keep = existing?.state === 'published' ? new Date(existing.publishAt) : null;
  return { state: 'published' as const, scheduled: false, publishAt: keep };
}

/** Creates or replaces an item's poll. Answers that keep their id keep their votes; removed answers lose theirs. */
async function savePoll(tx: Queryable, itemId: string, poll: PostBodyValue['poll']) {
  if (!poll.enabled) {
    await tx.query('DELETE FROM polls WHERE item_id = $1', [itemId]);
    return;
  }
  const saved = await one<{ id: string }>(
    tx,
    `INSERT INTO polls (item_id, title, closes_at) VALUES ($1, $2, $3)
     ON CONFLICT (item_id) DO UPDATE SET title = EXCLUDED.title, closes_at = EXCLUDED.closes_at RETURNING id`,
    [itemId, poll.title, poll.closesAt ?? null],
  );
  const pollId = saved!.id;
  const existing = new Set(
    (await tx.query<{ id: string }>('SELECT id FROM poll_answers WHERE poll_id = $1', [pollId])).map((row) => row.id),
  );
  const kept: string[] = [];
  for (const [position, answer] of poll.answers.entries()) {
    if (answer.id && existing.has(answer.id) && !kept.includes(answer.id)) {
      await tx.query('UPDATE poll_answers SET text = $2, position = $3 WHERE id = $1', [answer.id, answer.text, position]);
      kept.push(answer.id);
    } else {
      const row = await one<{ id: string }>(tx, 'INSERT INTO poll_answers (poll_id, position, text) VALUES ($1, $2, $3) RETURNING id', [
        pollId,
        position,
        answer.text,
      ]);
      kept.push(row!.id);
    }
  }
  await tx.query('DELETE FROM poll_answers WHERE poll_id = $1 AND NOT (id = ANY($2::text[]))', [pollId, kept]);
}

async function savePresale(tx: Queryable, itemId: string, type: ContentType, presale: PostBodyValue['presale']) {
  if (type !== 'ticketPresale' || !presale) {
    await tx.query('DELETE FROM ticket_presales WHERE item_id = $1', [itemId]);
    return;
  }
  await tx.query(
    `INSERT INTO ticket_presales (item_id, ticket_url, sale_starts_at, sale_ends_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (item_id) DO UPDATE SET ticket_url = EXCLUDED.ticket_url,
       sale_starts_at = EXCLUDED.sale_starts_at, sale_ends_at = EXCLUDED.sale_ends_at`,
    [itemId, presale.ticketUrl, presale.saleStartsAt ?? null, presale.saleEndsAt ?? null],
  );
}

export function contentRoutes(app: FastifyInstance, services: ContentServices) {
  const { db, signer, storage } = services;
  // An answer also holds its list until it goes: counted twice its size.
  const listBodies = new LRUCache<string, { list: object; body: Buffer }>({
    maxSize: LIST_BODIES_BYTES,
    sizeCalculation: (kept) => kept.body.length * 2,
  });

  async function respond(id: string, viewerId: string) {
    const row = await findItem(db, id);
    const [item] = await serializeItems(services, signer, [row!], viewerId);
    return item;
  }

  /** Validates and stores an item (a new one, or the existing one it replaces). */
  async function save(viewer: Viewer, rawBody: unknown, existing?: ItemRow) {
    const body = readPostBody(rawBody);
    const content = sanitizeCaption(body.content);
    // The rules count what readers will see, so they run again on what sanitising kept.
    const caption = CaptionSchema.safeParse(content);
    if (!caption.success) invalid({ content: Object.values(fieldErrors(caption.error)).flat() });
    await checkMedia(db, viewer, body);
    await checkPollClosing(db, body, existing);
    const { state, scheduled, publishAt } = publication(body, existing);
    const params = [body.tags, body.title, content, body.thumbnailId ?? null, body.mediaId ?? null, state, scheduled, publishAt];
    const saved = `RETURNING id, state, publish_at AS "publishAt", notified_at AS "notifiedAt", media_pending AS "mediaPending"`;
    // An item whose file is still processing waits for it: fans see it, and are told, once the file is ready.
    const pending = `EXISTS (SELECT 1 FROM media WHERE id = $6 AND status <> 'ready')`;
    const id = await db.transaction(async (tx) => {
      const row = existing
        ? await one<SavedItem>(
            tx,
            `UPDATE content_items SET type = $2, title = $3, content = $4, thumbnail_id = $5, media_id = $6, state = $7,
                    scheduled = $8, publish_at = COALESCE($9, now()), updated_at = now(), media_pending = ${pending}
              WHERE id = $1 ${saved}`,
            [existing.id, ...params],
          )
        : await one<SavedItem>(
            tx,
            `INSERT INTO content_items (artist_id, type, title, content, thumbnail_id, media_id, state, scheduled, publish_at, media_pending)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, now()), ${pending}) ${saved}`,
            [viewer.id, ...params],
          );
      await savePoll(tx, row!.id, body.poll);
      await savePresale(tx, row!.id, body.tags, body.presale);
      // Fans are told when they can see it (now, or at its time), by a job saved with the item.
      await announceWhenVisible(services, tx, row!);
      return row!.id;
    });
    if (existing) {
      const released = [existing.thumbnailId, existing.mediaId].filter((old) => old !== body.thumbnailId && old !== body.mediaId);
      await removeUnusedMedia(db, storage, released);
    }
    await services.cache.invalidate(tag.content(viewer.id));
    return respond(id, viewer.id);
  }

  /**
   * An artist's content, newest first by default. Fans with an active subscription see what is published; the
   * artist also sees drafts and scheduled items, each with its state.
   */
  app.get<{ Params: { username: string } }>('/performers/:username/content', async (request, reply) => {
    const artistId = await findArtistId(services, request.params.username);
    // A lapsed fan lists what they keep (decision 014).
    const access = await requireContentAccess(services, request, artistId, { allowKept: true });
    const query = listQuery(request.url, request.query);
    const sectionTypes: Record<'vault' | 'posts', ContentType[]> = { vault: [...VAULT_CATEGORIES], posts: POSTS_TYPES };
    const options = {
      artistId,
      owner: access.owner,
      types: query.types ?? (query.section ? sectionTypes[query.section] : undefined),
      states: access.owner ? query.state : undefined,
      kept: access.kept ? { from: access.kept.from.toISOString(), until: access.kept.until.toISOString() } : undefined,
      q: query.q,
      sort: query.sort,
      offset: query.offset,
      limit: query.limit,
    };
    // Every subscriber asks for the same few lists: they are shared, and each viewer's own marks are added after.
    const listKey = `content-list:${JSON.stringify(options)}`;
    const [list, marks] = await Promise.all([
      services.cache.read(listKey, async () => {
        const [{ rows, total }, until] = await Promise.all([listItems(db, options), nextPublication(db, artistId)]);
        const details = await itemDetails(db, signer, rows, access.owner ? artistId : undefined);
        const items = details.map((entry) => ({ details: entry, json: sharedItemJson(entry) }));
        return { value: { items, total }, tags: [tag.content(artistId), tag.user(artistId)], until };
      }),
      loadMarks(services, access.viewer.id),
    ]);
    // Most viewers of a list have marked none of it, or the same poll answers: their answer is built once, and
    // kept while the list it was built from is the one in the read cache.
    const bodyKey = `${listKey}\n${viewerKey(list.items, access.owner, marks)}`;
    const kept = listBodies.get(bodyKey);
    let body = kept?.list === list ? kept.body : undefined;
    if (!body) {
      const data = list.items.map((item) => viewItemJson(item.details, item.json, access.viewer.id, marks));
      body = okJsonBody(`{"data":[${data.join(',')}],"total":${list.total}}`);
      listBodies.set(bodyKey, { list, body });
    }
    return sendJsonBody(request, reply, body);
  });

  app.get<{ Params: { id: string } }>('/content/:id', async (request) => {
    const { details, access } = await requireReadableItem(services, request, request.params.id, { allowKept: true });
    const item = viewItem(details, access.viewer.id, await loadMarks(services, access.viewer.id));
    return ok(item.media ? { ...item, media: forViewer(item.media, signer, access.viewer.id) } : item);
  });

  /** Publish, schedule or save as a draft (the post form's fields; files first through POST /media). */
  app.post('/content', async (request, reply) => {
    const viewer = await requireArtist(services, request);
    const item = await save(viewer, request.body);
    return reply.status(201).send(ok(item));
  });

  /** Replace an item with the same body as POST (the edit form sends every field). */
  app.put<{ Params: { id: string } }>('/content/:id', async (request) => {
    const viewer = await requireArtist(services, request);
    const { item } = await requireOwnItem(services, request, request.params.id);
    return ok(await save(viewer, request.body, item));
  });

  /** Delete an item with its poll, comments, bookmarks, presale codes and the files nothing else uses. */
  app.delete<{ Params: { id: string } }>('/content/:id', async (request) => {
    const { item } = await requireOwnItem(services, request, request.params.id);
    await db.query('DELETE FROM content_items WHERE id = $1', [item.id]);
    // Collections count their items too.
    await services.cache.invalidate(tag.content(item.artistId), tag.collections(item.artistId));
    await removeUnusedMedia(db, storage, [item.thumbnailId, item.mediaId]);
    return ok({ success: true });
  });
}
