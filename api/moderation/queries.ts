import type { AuditEntry, BlockEntry, HeldEntry, ModerationExport, ReportEntry, UserSummary } from '#contract/moderation';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { notKept } from '../cache/read-cache.js';
import { RUNNING_MEMBERSHIP } from '../payments/membership-ending.js';

/** Whether the artist blocks the fan; kept until the club's moderation changes. */
export async function isBlocked(reads: Reads, artistId: string, fanId: string) {
  if (artistId === fanId) return false;
  return reads.cache.read(`blocked:${artistId}:${fanId}`, async () => ({
    value: Boolean(await one(reads.db, 'SELECT 1 FROM blocks WHERE artist_id = $1 AND fan_id = $2', [artistId, fanId])),
    tags: [tag.moderation(artistId)],
  }));
}

/** The artist's muted words, kept until the club's moderation changes. */
export async function mutedWords(reads: Reads, artistId: string) {
  return reads.cache.read(`mute-words:${artistId}`, async () => ({
    value: (await reads.db.query<{ word: string }>('SELECT word FROM mute_words WHERE artist_id = $1 ORDER BY word', [artistId])).map(
      (row) => row.word,
    ),
    tags: [tag.moderation(artistId)],
  }));
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether the text holds one of the words as a word of its own, in any case: "ass" holds back "you ass" but not
 * "class". A muted phrase ("go away") matches as written, with any run of spaces between its words.
 */
export function holdsMutedWord(text: string, words: string[]) {
  return words.some((word) => {
    const pattern = word.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
    return new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, 'iu').test(text);
  });
}

/** An account's name as the product shows it. */
export async function displayName(db: Queryable, userId: string) {
  const row = await one<{ name: string; username: string }>(db, 'SELECT name, username FROM users WHERE id = $1', [userId]);
  return row ? row.name || row.username : '';
}

/** The artist's name as a blocked fan is told it, kept with the artist's profile. */
export async function cachedArtistName(reads: Reads, artistId: string) {
  return reads.cache.read(`artist-name:${artistId}`, async () => {
    const name = await displayName(reads.db, artistId);
    return name ? { value: name, tags: [tag.user(artistId)] } : notKept(name);
  });
}

export interface ActionInput {
  artistId: string | null;
  actorId: string | null;
  /** Who did it, as the log shows them: an account's @username, or "operator (CLI)". */
  actorLabel: string;
  action: string;
  subjectUserId?: string | null;
  subjectLabel?: string;
  detail?: string;
}

/** Writes one entry of the audit log; called inside the action's own transaction where it has one. */
export async function logAction(db: Queryable, input: ActionInput) {
  await db.query(
    `INSERT INTO moderation_actions (artist_id, actor_id, actor_label, action, subject_user_id, subject_label, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      input.artistId,
      input.actorId,
      input.actorLabel,
      input.action,
      input.subjectUserId ?? null,
      input.subjectLabel ?? '',
      input.detail?.slice(0, 300) ?? '',
    ],
  );
}

const USER_FIELDS = (alias: string, prefix: string) =>
  `${alias}.id AS "${prefix}Id", ${alias}.username AS "${prefix}Username", ${alias}.name AS "${prefix}Name", ${alias}.avatar AS "${prefix}Avatar"`;

function summary(row: Record<string, unknown>, prefix: string): UserSummary {
  return {
    _id: row[`${prefix}Id`] as string,
    username: row[`${prefix}Username`] as string,
    name: row[`${prefix}Name`] as string,
    avatar: row[`${prefix}Avatar`] as string,
  };
}

export async function listBlocks(db: Queryable, artistId: string): Promise<BlockEntry[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT ${USER_FIELDS('u', 'fan')}, b.created_at AS "createdAt", ${RUNNING_MEMBERSHIP} AS member
       FROM blocks b JOIN users u ON u.id = b.fan_id WHERE b.artist_id = $1 ORDER BY b.created_at DESC, u.id`,
    [artistId],
  );
  return rows.map((row) => ({
    fan: summary(row, 'fan'),
    createdAt: new Date(row.createdAt as Date).toISOString(),
    member: Boolean(row.member),
  }));
}

/** Reports, newest first: one club's (the artist's view) or every club's (the operator's). */
export async function listReports(db: Queryable, artistId: string | null, limit = 100): Promise<ReportEntry[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT r.id, r.kind, r.target_id AS "targetId", r.excerpt, r.reason, r.created_at AS "createdAt",
            ${USER_FIELDS('f', 'reporter')}, ${USER_FIELDS('t', 'reported')}, ${USER_FIELDS('a', 'artist')}
       FROM reports r
       JOIN users f ON f.id = r.reporter_id
       JOIN users a ON a.id = r.artist_id
       LEFT JOIN users t ON t.id = r.reported_user_id
      WHERE $1::text IS NULL OR r.artist_id = $1
      ORDER BY r.created_at DESC, r.id DESC LIMIT $2`,
    [artistId, limit],
  );
  return rows.map((row) => ({
    _id: row.id as string,
    kind: row.kind as 'comment' | 'message',
    targetId: row.targetId as string,
    excerpt: row.excerpt as string,
    reason: row.reason as string,
    createdAt: new Date(row.createdAt as Date).toISOString(),
    reporter: summary(row, 'reporter'),
    reported: row.reportedId ? summary(row, 'reported') : null,
    artist: summary(row, 'artist'),
  }));
}

/** What waits for the artist's review: held comments and held messages, oldest first. */
export async function listHeld(db: Queryable, artistId: string): Promise<HeldEntry[]> {
  const rows = await db.query<Record<string, unknown>>(
    `SELECT * FROM (
       SELECT m.id, 'comment' AS kind, m.text, m.created_at AS "createdAt", ${USER_FIELDS('u', 'author')},
              c.id AS "placeId", c.title AS "placeTitle"
         FROM comments m JOIN content_items c ON c.id = m.item_id JOIN users u ON u.id = m.author_id
        WHERE c.artist_id = $1 AND m.held_at IS NOT NULL AND m.deleted_at IS NULL
       UNION ALL
       SELECT h.id, 'message' AS kind, h.text, h.created_at AS "createdAt", ${USER_FIELDS('u', 'author')},
              h.conversation_id AS "placeId", '' AS "placeTitle"
         FROM held_messages h JOIN conversations v ON v.id = h.conversation_id JOIN users u ON u.id = h.sender_id
        WHERE v.artist_id = $1
     ) held ORDER BY "createdAt", id LIMIT 200`,
    [artistId],
  );
  return rows.map((row) => ({
    _id: row.id as string,
    kind: row.kind as 'comment' | 'message',
    text: row.text as string,
    createdAt: new Date(row.createdAt as Date).toISOString(),
    author: summary(row, 'author'),
    placeId: row.placeId as string,
    placeTitle: row.placeTitle as string,
  }));
}

/** The audit log, newest first: one club's (the artist's view) or all of it (the operator's). */
export async function listAudit(db: Queryable, artistId: string | null, limit = 200): Promise<AuditEntry[]> {
  const rows = await db.query<{
    id: string;
    action: string;
    actorLabel: string;
    subjectLabel: string;
    detail: string;
    artist: string | null;
    createdAt: Date;
  }>(
    `SELECT l.id, l.action, l.actor_label AS "actorLabel", l.subject_label AS "subjectLabel", l.detail,
            a.username AS artist, l.created_at AS "createdAt"
       FROM moderation_actions l LEFT JOIN users a ON a.id = l.artist_id
      WHERE $1::text IS NULL OR l.artist_id = $1
      ORDER BY l.created_at DESC, l.id DESC LIMIT $2`,
    [artistId, limit],
  );
  return rows.map((row) => ({
    _id: row.id,
    action: row.action,
    actor: row.actorLabel,
    subject: row.subjectLabel,
    detail: row.detail,
    artist: row.artist,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}

/** The account export's moderation part (oldest first): blocks either way, the reports the user made, muted words. */
export async function moderationExport(db: Queryable, userId: string): Promise<ModerationExport> {
  const [blockedBy, blocked, reports, words] = await Promise.all([
    db.query<{ artist: string; since: Date }>(
      `SELECT a.username AS artist, b.created_at AS since FROM blocks b JOIN users a ON a.id = b.artist_id WHERE b.fan_id = $1 ORDER BY b.created_at`,
      [userId],
    ),
    db.query<{ fan: string; since: Date }>(
      `SELECT f.username AS fan, b.created_at AS since FROM blocks b JOIN users f ON f.id = b.fan_id WHERE b.artist_id = $1 ORDER BY b.created_at`,
      [userId],
    ),
    db.query<{ kind: 'comment' | 'message'; artist: string; excerpt: string; reason: string; createdAt: Date }>(
      `SELECT r.kind, a.username AS artist, r.excerpt, r.reason, r.created_at AS "createdAt"
         FROM reports r JOIN users a ON a.id = r.artist_id WHERE r.reporter_id = $1 ORDER BY r.created_at`,
      [userId],
    ),
    db.query<{ word: string }>('SELECT word FROM mute_words WHERE artist_id = $1 ORDER BY word', [userId]),
  ]);
  const iso = (date: Date) => new Date(date).toISOString();
  return {
    blockedBy: blockedBy.map((row) => ({ artist: row.artist, since: iso(row.since) })),
    blocked: blocked.map((row) => ({ fan: row.fan, since: iso(row.since) })),
    reportsMade: reports.map((row) => ({ ...row, createdAt: iso(row.createdAt) })),
    mutedWords: words.map((row) => row.word),
  };
}
