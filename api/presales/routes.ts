import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireOwnItem, requireReadableItem } from '../content/guard.js';
import { paging } from '../content/params.js';
import type { ContentServices } from '../content/services.js';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one } from '../db/client.js';
import { forbidden, notFound, ok, parse } from '../http.js';

const presaleCodeMessages = {
  notPresale: 'This post has no presale code.',
  artistsOwn: 'Presale codes are for fans. Your fans’ codes are listed under presale codes.',
  codeNotFound: 'This presale code could not be found.',
} as const;

/** No 0/O or 1/I/L: a code read aloud or copied by hand survives. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A random code like K7MX-4PQR-2HTA (about 59 bits): unguessable, and easy to read out at a box office. */
export function newPresaleCode() {
  const chars = Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

interface CodeRow {
  id: string;
  code: string;
  createdAt: Date;
  revokedAt: Date | null;
}

function serializeCode(row: CodeRow) {
  return {
    _id: row.id,
    code: row.code,
    createdAt: new Date(row.createdAt).toISOString(),
    revokedAt: row.revokedAt ? new Date(row.revokedAt).toISOString() : null,
  };
}

const CODE_COLUMNS = `id, code, created_at AS "createdAt", revoked_at AS "revokedAt"`;

/** The fan's code for the item, made on first request; a code that collides with another is drawn again. */
async function codeFor({ db, cache }: Reads, itemId: string, userId: string) {
  for (let attempt = 0; ; attempt++) {
    const existing = await one<CodeRow>(db, `SELECT ${CODE_COLUMNS} FROM presale_codes WHERE item_id = $1 AND user_id = $2`, [
      itemId,
      userId,
    ]);
    if (existing) return existing;
    try {
      const created = await one<CodeRow>(
        db,
        `INSERT INTO presale_codes (item_id, user_id, code) VALUES ($1, $2, $3)
         ON CONFLICT (item_id, user_id) DO NOTHING RETURNING ${CODE_COLUMNS}`,
        [itemId, userId, newPresaleCode()],
      );
      if (created) {
        await cache.invalidate(tag.presaleCodes(itemId));
        return created;
      }
    } catch (error) {
      // 23505: the code (not the fan) already exists; a fresh draw almost surely does not.
      if ((error as { code?: string }).code !== '23505' || attempt >= 5) throw error;
    }
  }
}

const CodesQuery = z.object({
  /** Look up one code (a leaked one, to see whose it is). */
  code: z.string().trim().max(40).optional(),
  ...paging,
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export function presaleRoutes(app: FastifyInstance, services: ContentServices) {
  const { db } = services;

  /** A subscribed fan's own presale code for a ticket presale, shown only to them; revokedAt is set once revoked. */
  app.get<{ Params: { id: string } }>('/content/:id/presale-code', async (request) => {
    const { item, access } = await requireReadableItem(services, request, request.params.id);
    if (item.type !== 'ticketPresale') throw notFound(presaleCodeMessages.notPresale);
    if (access.owner) throw forbidden(presaleCodeMessages.artistsOwn);
    return ok(serializeCode(await codeFor(services, item.id, access.viewer.id)));
  });

  /** The artist's list of codes given out for a presale, each with its fan, to trace a leaked code. */
  app.get<{ Params: { id: string } }>('/content/:id/presale-codes', async (request) => {
    const { item } = await requireOwnItem(services, request, request.params.id);
    const query = parse(CodesQuery, request.query);
    const code = query.code ? query.code.toUpperCase() : null;
    const where = `p.item_id = $1 AND ($2::text IS NULL OR p.code = $2)`;
    // A page of the list is kept until a code is given out or revoked (tag.presaleCodes) or one of its fans changes
    // their name or picture (tag.user): an artist watching a presale open reads it again and again.
    const { rows, total } = await services.cache.read(`presale-codes:${item.id}:${code ?? ''}:${query.offset}:${query.limit}`, async () => {
      const [rows, count] = await Promise.all([
        db.query<CodeRow & { fanId: string; fanUsername: string; fanName: string; fanAvatar: string }>(
          `SELECT p.id, p.code, p.created_at AS "createdAt", p.revoked_at AS "revokedAt",
                  u.id AS "fanId", u.username AS "fanUsername", u.name AS "fanName", u.avatar AS "fanAvatar"
             FROM presale_codes p JOIN users u ON u.id = p.user_id
            WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT $3 OFFSET $4`,
          [item.id, code, query.limit, query.offset],
        ),
        db.query<{ total: number }>(`SELECT count(*)::int AS total FROM presale_codes p WHERE ${where}`, [item.id, code]),
      ]);
      const fans = new Set(rows.map((row) => row.fanId));
      return { value: { rows, total: count[0]?.total ?? 0 }, tags: [tag.presaleCodes(item.id), ...[...fans].map(tag.user)] };
    });
    const data = rows.map((row) => ({
      ...serializeCode(row),
      fan: { _id: row.fanId, username: row.fanUsername, name: row.fanName, avatar: row.fanAvatar },
    }));
    return ok({ data, total });
  });

  /** Revoke a code (the artist tells the ticket seller to refuse it); the fan sees it as revoked. */
  app.delete<{ Params: { id: string; codeId: string } }>('/content/:id/presale-codes/:codeId', async (request) => {
    const { item } = await requireOwnItem(services, request, request.params.id);
    const row = await one<CodeRow>(
      db,
      `UPDATE presale_codes SET revoked_at = COALESCE(revoked_at, now())
        WHERE id = $1 AND item_id = $2 RETURNING ${CODE_COLUMNS}`,
      [request.params.codeId, item.id],
    );
    if (!row) throw notFound(presaleCodeMessages.codeNotFound);
    await services.cache.invalidate(tag.presaleCodes(item.id));
    return ok(serializeCode(row));
  });
}
