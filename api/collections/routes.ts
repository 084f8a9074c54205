import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { CollectionSchema } from '#contract/content-schemas';
import type { CollectionDetail } from '#contract/content';
import type { ContentType } from '#contract/content-types';
import type { Viewer } from '../auth/viewer.js';
import { findArtistId, requireArtist, requireContentAccess, VISIBLE } from '../content/access.js';
import { paging, TypesParam } from '../content/params.js';
import {
  itemDetails,
  itemSelect,
  loadMarks,
  nextPublication,
  sharedItemJson,
  typesCondition,
  viewItemJson,
  type ItemRow,
} from '../content/queries.js';
import type { ContentServices } from '../content/services.js';
import { one, type Queryable } from '../db/client.js';
import { ApiError, forbidden, notFound, ok, okJsonBody, parse, sendJsonBody } from '../http.js';
import { findMediaByIds, removeUnusedMedia, serializeMedia } from '../media/queries.js';
import { tag } from '../cache/tags.js';

const collectionMessages = {
  notFound: 'This collection could not be found.',
  notYours: 'Only the artist who made this collection can change it.',
  coverMissing: 'This file was not found. Please upload it again.',
  coverNotImage: 'The cover must be an image.',
  itemMissing: 'Some of these items could not be found.',
} as const;

const ListQuery = z.object({ ...paging });

const ItemsQuery = z.object({
  types: TypesParam,
  /** Without sort the items keep the artist's order; asc or desc orders them by publish date (Oldest, Newest). */
  sort: z.enum(['asc', 'desc'], { error: 'Sort must be asc or desc.' }).optional(),
  ...paging,
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

interface CollectionRow {
  id: string;
  artistId: string;
  title: string;
  description: string;
  coverId: string | null;
  itemCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Collections with the number of items the viewer can see: all for the artist ($2 true), published ones for fans. */
const COLLECTION_SELECT = `
  SELECT k.id, k.artist_id AS "artistId", k.title, k.description, k.cover_id AS "coverId",
         k.created_at AS "createdAt", k.updated_at AS "updatedAt",
         (SELECT count(*)::int FROM collection_items ci JOIN content_items c ON c.id = ci.item_id
           WHERE ci.collection_id = k.id AND ($2::boolean OR ${VISIBLE})) AS "itemCount"
    FROM collections k`;

export function collectionRoutes(app: FastifyInstance, services: ContentServices) {
  const { db, signer, storage } = services;
  const collectionArtists = new LRUCache<string, string>({ max: 10_000 });

  async function serializeCollections(rows: CollectionRow[]) {
    const covers = await findMediaByIds(
      db,
      rows.map((row) => row.coverId).filter((id): id is string => Boolean(id)),
    );
    return rows.map((row) => {
      const cover = row.coverId ? covers.get(row.coverId) : undefined;
      return {
        _id: row.id,
        performerId: row.artistId,
        title: row.title,
        description: row.description,
        cover: cover ? serializeMedia(cover, signer) : null,
        itemCount: row.itemCount,
        createdAt: new Date(row.createdAt).toISOString(),
        updatedAt: new Date(row.updatedAt).toISOString(),
      };
    });
  }

  async function findCollection(id: string, owner: boolean) {
    return one<CollectionRow>(db, `${COLLECTION_SELECT} WHERE k.id = $1`, [id, owner]);
  }

  /** The cover is the artist's own image; the items are the artist's own, kept in the order given. */
  async function checkParts(viewer: Viewer, body: z.output<typeof CollectionSchema>) {
    if (body.coverId) {
      const cover = (await findMediaByIds(db, [body.coverId])).get(body.coverId);
      if (!cover || cover.ownerId !== viewer.id)
        throw new ApiError(400, collectionMessages.coverMissing, { coverId: [collectionMessages.coverMissing] });
      if (cover.kind !== 'image')
        throw new ApiError(400, collectionMessages.coverNotImage, { coverId: [collectionMessages.coverNotImage] });
    }
    if (body.itemIds?.length) {
      const unique = [...new Set(body.itemIds)];
      const found = await one<{ count: number }>(
        db,
        'SELECT count(*)::int AS count FROM content_items WHERE id = ANY($1::text[]) AND artist_id = $2',
        [unique, viewer.id],
      );
      if (found?.count !== unique.length)
        throw new ApiError(400, collectionMessages.itemMissing, { itemIds: [collectionMessages.itemMissing] });
    }
  }

  async function saveItems(tx: Queryable, collectionId: string, itemIds: string[] | undefined) {
    if (!itemIds) return;
    await tx.query('DELETE FROM collection_items WHERE collection_id = $1', [collectionId]);
    const unique = [...new Set(itemIds)];
    if (unique.length === 0) return;
    await tx.query(
      `INSERT INTO collection_items (collection_id, item_id, position)
       SELECT $1, item_id, position::int - 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(item_id, position)`,
      [collectionId, unique],
    );
  }

  async function requireOwnCollection(request: Parameters<typeof requireArtist>[1], id: string) {
    const viewer = await requireArtist(services, request);
    const collection = await findCollection(id, true);
    if (!collection) throw notFound(collectionMessages.notFound);
    if (collection.artistId !== viewer.id) throw forbidden(collectionMessages.notYours);
    return { viewer, collection };
  }

  /** An artist's collections, newest first. Fans see those holding at least one published item. */
  app.get<{ Params: { username: string } }>('/performers/:username/collections', async (request) => {
    const artistId = await findArtistId(services, request.params.username);
    const access = await requireContentAccess(services, request, artistId);
    const query = parse(ListQuery, request.query);
    const where = `k.artist_id = $1 AND ($2::boolean OR EXISTS (
        SELECT 1 FROM collection_items ci JOIN content_items c ON c.id = ci.item_id WHERE ci.collection_id = k.id AND ${VISIBLE}))`;
    // What fans see of a collection (whether it shows, how many items) follows its items' publication too.
    const list = await services.cache.read(`collections:${artistId}:${access.owner}:${query.limit}:${query.offset}`, async () => {
      const [rows, count, until] = await Promise.all([
        db.query<CollectionRow>(`${COLLECTION_SELECT} WHERE ${where} ORDER BY k.created_at DESC, k.id DESC LIMIT $3 OFFSET $4`, [
          artistId,
          access.owner,
          query.limit,
          query.offset,
        ]),
        db.query<{ total: number }>(`SELECT count(*)::int AS total FROM collections k WHERE ${where}`, [artistId, access.owner]),
        nextPublication(db, artistId),
      ]);
      const value = { data: await serializeCollections(rows), total: count[0]?.total ?? 0 };
      return { value, tags: [tag.collections(artistId), tag.content(artistId)], until };
    });
    return ok(list);
  });

  /**
   * A collection with a page of its items (the web's /collection/{id}?filters&sort): { ...collection, items: { data,
   * total } }. What every viewer of the same page sees is read once and kept in the read cache (under the tags of the
   * artist's collections, content and profile, and until the next scheduled item is published); each viewer's
   * bookmarks and votes are added to it, as the content lists do.
   */
  app.get<{ Params: { id: string } }>('/collections/:id', async (request, reply) => {
    const id = request.params.id;
    const artistId = await collectionArtist(id);
    const access = await requireContentAccess(services, request, artistId);
    const query = parse(ItemsQuery, request.query);
    const options = {
      id,
      owner: access.owner,
      types: query.types ?? null,
      sort: query.sort ?? null,
      limit: query.limit,
      offset: query.offset,
    };
    const [page, marks] = await Promise.all([
      services.cache.read(`collection:${JSON.stringify(options)}`, async () => {
        const [value, until] = await Promise.all([readCollectionPage(artistId, options), nextPublication(db, artistId)]);
        return { value, tags: [tag.collections(artistId), tag.content(artistId), tag.user(artistId)], until };
      }),
      loadMarks(services, access.viewer.id),
    ]);
    if (!page) throw notFound(collectionMessages.notFound);
    const items = page.items.map((item) => viewItemJson(item.details, item.json, access.viewer.id, marks));
    const detail = `${page.json},"items":{"data":[${items.join(',')}],"total":${page.total}}}`;
    return sendJsonBody(request, reply, okJsonBody(detail));
  });

  /** The artist a collection belongs to (which never changes), remembered; an unknown collection is the 404. */
  async function collectionArtist(id: string) {
    const known = collectionArtists.get(id);
    if (known) return known;
    const row = await one<{ artistId: string }>(db, 'SELECT artist_id AS "artistId" FROM collections WHERE id = $1', [id]);
    if (!row) throw notFound(collectionMessages.notFound);
    collectionArtists.set(id, row.artistId);
    return row.artistId;
  }

  /** What every viewer of one page of a collection sees: the collection (as JSON text, open) and the page's items. */
  async function readCollectionPage(
    artistId: string,
    options: { id: string; owner: boolean; types: ContentType[] | null; sort: 'asc' | 'desc' | null; limit: number; offset: number },
  ) {
    const collection = await findCollection(options.id, options.owner);
    if (!collection) return null;
    const order = options.sort ? `c.publish_at ${options.sort === 'asc' ? 'ASC' : 'DESC'}, c.id` : 'ci.position, c.id';
    const where = `ci.collection_id = $1 AND ($2::boolean OR ${VISIBLE}) AND ${typesCondition('$3')}`;
    const params = [options.id, options.owner, options.types];
    const [rows, count, present, [serialized]] = await Promise.all([
      db.query<ItemRow>(
        `${itemSelect()} JOIN collection_items ci ON ci.item_id = c.id WHERE ${where} ORDER BY ${order} LIMIT $4 OFFSET $5`,
        [...params, options.limit, options.offset],
      ),
      db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM collection_items ci JOIN content_items c ON c.id = ci.item_id WHERE ${where}`,
        params,
      ),
      db.query<{ type: ContentType }>(
        `SELECT DISTINCT c.type FROM collection_items ci JOIN content_items c ON c.id = ci.item_id
          WHERE ci.collection_id = $1 AND ($2::boolean OR ${VISIBLE}) ORDER BY c.type`,
        [options.id, options.owner],
      ),
      serializeCollections([collection]),
    ]);
    const details = await itemDetails(db, signer, rows, options.owner ? artistId : undefined);
    const head: Omit<CollectionDetail, 'items'> = { ...serialized!, types: present.map((row) => row.type) };
    return {
      json: JSON.stringify(head).slice(0, -1),
      items: details.map((entry) => ({ details: entry, json: sharedItemJson(entry) })),
      total: count[0]?.total ?? 0,
    };
  }

  app.post('/collections', async (request, reply) => {
    const viewer = await requireArtist(services, request);
    const body = parse(CollectionSchema, request.body);
    await checkParts(viewer, body);
    const id = await db.transaction(async (tx) => {
      const row = await one<{ id: string }>(
        tx,
        'INSERT INTO collections (artist_id, title, description, cover_id) VALUES ($1, $2, $3, $4) RETURNING id',
        [viewer.id, body.title, body.description, body.coverId ?? null],
      );
      await saveItems(tx, row!.id, body.itemIds);
      return row!.id;
    });
    await services.cache.invalidate(tag.collections(viewer.id));
    const [collection] = await serializeCollections([(await findCollection(id, true))!]);
    return reply.status(201).send(ok(collection));
  });

  /** Replace title, description and cover; `itemIds`, when present, sets the items and their order. */
  app.put<{ Params: { id: string } }>('/collections/:id', async (request) => {
    const { viewer, collection } = await requireOwnCollection(request, request.params.id);
    const body = parse(CollectionSchema, request.body);
    await checkParts(viewer, body);
    await db.transaction(async (tx) => {
      await tx.query('UPDATE collections SET title = $2, description = $3, cover_id = $4, updated_at = now() WHERE id = $1', [
        collection.id,
        body.title,
        body.description,
        body.coverId ?? null,
      ]);
      await saveItems(tx, collection.id, body.itemIds);
    });
    await services.cache.invalidate(tag.collections(viewer.id));
    if (collection.coverId !== (body.coverId ?? null)) await removeUnusedMedia(db, storage, [collection.coverId]);
    const [updated] = await serializeCollections([(await findCollection(collection.id, true))!]);
    return ok(updated);
  });

  /** Deleting a collection keeps its items. */
  app.delete<{ Params: { id: string } }>('/collections/:id', async (request) => {
    const { collection } = await requireOwnCollection(request, request.params.id);
    await db.query('DELETE FROM collections WHERE id = $1', [collection.id]);
    await services.cache.invalidate(tag.collections(collection.artistId));
    await removeUnusedMedia(db, storage, [collection.coverId]);
    return ok({ success: true });
  });
}
