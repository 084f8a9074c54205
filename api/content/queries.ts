import { CONTENT_TYPE_LABELS, itemViewForMedia, type ContentType } from '#contract/content-types';
import type { ContentItem, Poll } from '#contract/content';
import { HIGHLIGHT } from '#contract/search';
import { formatScheduleDate, formatScheduleTime, isPollClosed } from '#contract/content-rules';
import { notKept } from '../cache/read-cache.js';
import { tag } from '../cache/tags.js';
import type { Reads } from '../context.js';
import { one, type Queryable } from '../db/client.js';
import { findMediaByIds, serializeMedia } from '../media/queries.js';
import type { MediaSigner } from '../media/signing.js';
import { keptCondition, VISIBLE } from './access.js';

export type ItemState = 'draft' | 'scheduled' | 'published';

export interface ItemRow {
  id: string;
  artistId: string;
  artistUsername: string;
  artistName: string;
  artistAvatar: string;
  type: ContentType;
  title: string;
  content: string;
  /** The state as a reader sees it: a scheduled item whose time has come is published. */
  state: ItemState;
  scheduled: boolean;
  publishAt: Date;
  createdAt: Date;
  updatedAt: Date;
  thumbnailId: string | null;
  mediaId: string | null;
  /** Its file is still processing (or failed): fans do not see it yet, whatever its state. */
  mediaPending: boolean;
  commentCount: number;
  /** Search lists only: the title and the best matching passage, matched words between HIGHLIGHT marks. */
  highlightTitle?: string;
  highlightExcerpt?: string;
}

/**
 * Content items with their artist and comment count, as every viewer sees them (what is the viewer's own, a
 * bookmark or a vote, comes from loadMarks); `extra` adds columns from tables the caller joins. The item is alias c.
 */
export const itemSelect = (extra = '') => `
  SELECT ${extra ? `${extra},` : ''} c.id, c.artist_id AS "artistId", u.username AS "artistUsername", u.name AS "artistName", u.avatar AS "artistAvatar",
         c.type, c.title, c.content,
         CASE WHEN c.state = 'scheduled' AND c.publish_at <= now() THEN 'published' ELSE c.state END AS state,
         c.scheduled, c.publish_at AS "publishAt", c.created_at AS "createdAt", c.updated_at AS "updatedAt",
         c.thumbnail_id AS "thumbnailId", c.media_id AS "mediaId", c.media_pending AS "mediaPending",
         (SELECT count(*)::int FROM comments m
           WHERE m.item_id = c.id AND m.deleted_at IS NULL AND m.hidden_at IS NULL AND m.held_at IS NULL) AS "commentCount"
    FROM content_items c JOIN users u ON u.id = c.artist_id`;

export function findItem(db: Queryable, id: string) {
  return one<ItemRow>(db, `${itemSelect()} WHERE c.id = $1`, [id]);
}

/**
 * An item as every viewer sees it (its row, media, poll and presale), from the read cache: an item page is opened
 * by every fan of a club, and each open asked the database the same five questions. Kept until the artist's content
 * changes (an edit, a delete, a vote, a comment: tag.content) or, for a scheduled item, until its time comes.
 */
export function readItem(reads: Reads, signer: MediaSigner, id: string) {
  return reads.cache.read<ItemDetails | undefined>(`item:${id}`, async () => {
    const row = await findItem(reads.db, id);
    if (!row) return notKept(undefined);
    const [details] = await itemDetails(reads.db, signer, [row]);
    const until = row.state === 'scheduled' ? new Date(row.publishAt).getTime() : undefined;
    return { value: details, tags: [tag.content(row.artistId), tag.user(row.artistId)], until };
  });
}

/**
 * When the artist's next scheduled item comes out (epoch ms), if one is waiting: a cached list is stale from then
 * on, with no write to say so.
 */
export async function nextPublication(db: Queryable, artistId: string): Promise<number | undefined> {
  const row = await one<{ at: Date | null }>(
    db,
    `SELECT min(publish_at) AS at FROM content_items WHERE artist_id = $1 AND state = 'scheduled' AND publish_at > now()`,
    [artistId],
  );
  return row?.at ? new Date(row.at).getTime() : undefined;
}

/**
 * The types filter as SQL on parameter $n: an item matches its own type, and asking for polls also matches any
 * item that carries a poll (a text post with a poll is a poll to a fan filtering for polls).
 */
export function typesCondition(param: string) {
  return `(${param}::text[] IS NULL OR c.type = ANY(${param}::text[])
           OR ('poll' = ANY(${param}::text[]) AND EXISTS (SELECT 1 FROM polls p WHERE p.item_id = c.id)))`;
}

export interface ItemListOptions {
  artistId: string;
  /** The owning artist sees drafts and scheduled items too; fans only what is published. */
  owner: boolean;
  types?: ContentType[];
  states?: ItemState[];
  /** A lapsed fan's kept period (ISO times): only what was published then. */
  kept?: { from: string; until: string };
  /** Words to search for in the title, caption and transcript (web search syntax: "quoted phrases", -not, or). */
  q?: string;
  sort: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const HEADLINE_TITLE = `HighlightAll=true, StartSel=${HIGHLIGHT.start}, StopSel=${HIGHLIGHT.stop}`;
const HEADLINE_EXCERPT = `MaxFragments=2, MaxWords=18, MinWords=6, FragmentDelimiter=" … ", StartSel=${HIGHLIGHT.start}, StopSel=${HIGHLIGHT.stop}`;

/** The title and a passage of the caption (without its tags) or transcript, as ts_headline marks the matches of $n. */
const highlights = (query: string) => `
  ts_headline('english', translate(c.title, E'\\u0002\\u0003', ''), ${query}, '${HEADLINE_TITLE}') AS "highlightTitle",
  ts_headline('english', translate(regexp_replace(c.content, '<[^>]*>', ' ', 'g') || ' ' || c.transcript, E'\\u0002\\u0003', ''),
              ${query}, '${HEADLINE_EXCERPT}') AS "highlightExcerpt"`;

export async function listItems(db: Queryable, options: ItemListOptions) {
  // The visibility condition is left out of the SQL for the owner rather than passed as a flag, so the fans'
  // query matches the partial indexes on published items.
  const where = `c.artist_id = $1
    AND ${options.owner ? 'TRUE' : VISIBLE}
    AND ${typesCondition('$2')}
    AND ($3::text[] IS NULL OR (CASE WHEN c.state = 'scheduled' AND c.publish_at <= now() THEN 'published' ELSE c.state END) = ANY($3::text[]))
    AND ($4::timestamptz IS NULL OR ${keptCondition('$4', '$5')})
    AND ($6::text IS NULL OR c.search @@ websearch_to_tsquery('english', $6::text))`;
  const params = [
    options.artistId,
    options.types?.length ? options.types : null,
    options.states?.length ? options.states : null,
    options.kept?.from ?? null,
    options.kept?.until ?? null,
    options.q || null,
  ];
  const direction = options.sort === 'asc' ? 'ASC' : 'DESC';
  const extra = options.q ? highlights(`websearch_to_tsquery('english', $6::text)`) : '';
  const [rows, count] = await Promise.all([
    db.query<ItemRow>(`${itemSelect(extra)} WHERE ${where} ORDER BY c.publish_at ${direction}, c.id ${direction} LIMIT $7 OFFSET $8`, [
      ...params,
      options.limit,
      options.offset,
    ]),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM content_items c WHERE ${where}`, params),
  ]);
  return { rows, total: count[0]?.total ?? 0 };
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

interface PollRow {
  id: string;
  itemId: string;
  title: string;
  closesAt: Date | null;
}

interface AnswerRow {
  id: string;
  pollId: string;
  text: string;
  votes: number;
}

interface PresaleRow {
  itemId: string;
  ticketUrl: string;
  saleStartsAt: Date | null;
  saleEndsAt: Date | null;
}

export interface PollEntry {
  poll: PollRow;
  answers: AnswerRow[];
}

/** Polls of the given items with each answer's votes (the viewer's own vote is in loadMarks). */
export async function loadPolls(db: Queryable, itemIds: string[]) {
  const result = new Map<string, PollEntry>();
  if (itemIds.length === 0) return result;
  const polls = await db.query<PollRow>(
    `SELECT id, item_id AS "itemId", title, closes_at AS "closesAt" FROM polls WHERE item_id = ANY($1::text[])`,
    [itemIds],
  );
  const pollIds = polls.map((poll) => poll.id);
  const answers = pollIds.length
    ? await db.query<AnswerRow>(
        `SELECT a.id, a.poll_id AS "pollId", a.text,
                (SELECT count(*)::int FROM poll_votes v WHERE v.answer_id = a.id) AS votes
           FROM poll_answers a WHERE a.poll_id = ANY($1::text[]) ORDER BY a.poll_id, a.position`,
        [pollIds],
      )
    : [];
  for (const poll of polls) result.set(poll.itemId, { poll, answers: answers.filter((answer) => answer.pollId === poll.id) });
  return result;
}

/** What one viewer has done to content: the items they bookmarked, and their answer to each poll they voted in. */
export interface Marks {
  bookmarks: ReadonlySet<string>;
  votes: ReadonlyMap<string, string>;
}

const marksQuery = `SELECT 'bookmark' AS kind, item_id AS id, NULL AS "answerId" FROM bookmarks WHERE user_id = $1
  UNION ALL SELECT 'vote', poll_id, answer_id FROM poll_votes WHERE user_id = $1`;

function toMarks(rows: { kind: string; id: string; answerId: string | null }[]): Marks {
  const bookmarks = new Set<string>();
  const votes = new Map<string, string>();
  for (const row of rows) {
    if (row.kind === 'bookmark') bookmarks.add(row.id);
    else votes.set(row.id, row.answerId!);
  }
  return { bookmarks, votes };
}

/** A viewer's marks, cached until they bookmark, unbookmark or vote (tag.marks). */
export function loadMarks(reads: Reads, viewerId: string): Promise<Marks> {
  return reads.cache.read(`marks:${viewerId}`, async () => ({
    value: toMarks(await reads.db.query(marksQuery, [viewerId])),
    tags: [tag.marks(viewerId)],
  }));
}

/**
 * A poll as the API sends it. Results (votes per answer, total) are shown to the artist, to a fan who has voted, and
 * to everyone once the poll has closed; before voting a fan sees the question and the answers only.
 */
export function serializePoll(entry: PollEntry & { votedAnswerId: string | null }, owner: boolean, now = new Date()): Poll {
  const closed = isPollClosed(entry.poll.closesAt, now);
  const showResults = owner || closed || entry.votedAnswerId !== null;
  return {
    _id: entry.poll.id,
    enabled: true,
    title: entry.poll.title,
    closesAt: iso(entry.poll.closesAt),
    closed,
    answers: entry.answers.map((answer) => ({ _id: answer.id, text: answer.text, votes: showResults ? answer.votes : null })),
    totalVotes: showResults ? entry.answers.reduce((sum, answer) => sum + answer.votes, 0) : null,
    votedAnswerId: entry.votedAnswerId,
    showResults,
  };
}

async function loadPresales(db: Queryable, itemIds: string[]) {
  if (itemIds.length === 0) return new Map<string, PresaleRow>();
  const rows = await db.query<PresaleRow>(
    `SELECT item_id AS "itemId", ticket_url AS "ticketUrl", sale_starts_at AS "saleStartsAt", sale_ends_at AS "saleEndsAt"
       FROM ticket_presales WHERE item_id = ANY($1::text[])`,
    [itemIds],
  );
  return new Map(rows.map((row) => [row.itemId, row]));
}

/**
 * Content items as every viewer sees them, with their media (signed links), poll and presale details loaded in a
 * few batched queries whatever the number of items. viewItem adds what differs from one viewer to the next.
 */
export async function itemDetails(db: Queryable, signer: MediaSigner, rows: ItemRow[], viewerId?: string) {
  const ids = rows.map((row) => row.id);
  const mediaIds = rows.flatMap((row) => [row.thumbnailId, row.mediaId]).filter((id): id is string => Boolean(id));
  const [media, polls, presales] = await Promise.all([
    findMediaByIds(db, [...new Set(mediaIds)]),
    loadPolls(db, ids),
    loadPresales(
      db,
      rows.filter((row) => row.type === 'ticketPresale').map((row) => row.id),
    ),
  ]);
  return rows.map((row) => {
    const mediaRow = row.mediaId ? media.get(row.mediaId) : undefined;
    const thumbnailRow = row.thumbnailId ? media.get(row.thumbnailId) : undefined;
    const presale = presales.get(row.id);
    // Only the artist is shown an item fans cannot see yet: its links are made for the artist. So are the links of
    // the artist's own items (they also name the original of audio and video, kept for the artist).
    const audience = row.state === 'published' && !row.mediaPending && row.artistId !== viewerId ? 'fans' : 'artist';
    return {
      row,
      poll: polls.get(row.id) ?? null,
      shown: {
        _id: row.id,
        performerId: row.artistId,
        performer: { _id: row.artistId, username: row.artistUsername, name: row.artistName, avatar: row.artistAvatar },
        type: row.type,
        typeLabel: CONTENT_TYPE_LABELS[row.type],
        title: row.title,
        content: row.content,
        /** Which viewer the item page opens (the `type` of /{artist}/vault/{id}): audio, video, photo or post. */
        mediaType: itemViewForMedia(mediaRow?.kind),
        state: row.state,
        publishAt: new Date(row.publishAt).toISOString(),
        createdAt: iso(row.createdAt),
        updatedAt: iso(row.updatedAt),
        thumbnail: thumbnailRow ? serializeMedia(thumbnailRow, signer, audience) : null,
        media: mediaRow ? serializeMedia(mediaRow, signer, audience) : null,
        presale: presale
          ? { ticketUrl: presale.ticketUrl, saleStartsAt: iso(presale.saleStartsAt), saleEndsAt: iso(presale.saleEndsAt) }
          : null,
        stats: { comments: row.commentCount },
        // A passage is worth showing only when it holds a match (ts_headline gives the first words otherwise).
        ...(row.highlightTitle !== undefined
          ? {
              highlight: {
                title: row.highlightTitle,
                excerpt: row.highlightExcerpt?.includes(HIGHLIGHT.start) ? row.highlightExcerpt : null,
              },
            }
          : {}),
      },
    };
  });
}

export type ItemDetails = Awaited<ReturnType<typeof itemDetails>>[number];

/** What an item shows one viewer beyond what everyone sees: the artist's schedule, the poll as they may see it, the bookmark. */
function viewerFields(details: ItemDetails, viewerId: string, marks: Marks) {
  const { row, poll } = details;
  const owner = row.artistId === viewerId;
  const publishAt = new Date(row.publishAt);
  return {
    /** The schedule as the post form holds it (DD/MM/YYYY and HH:MM, UTC), for the artist's edit form. */
    schedule: owner
      ? { enabled: row.scheduled && row.state !== 'published', date: formatScheduleDate(publishAt), time: formatScheduleTime(publishAt) }
      : undefined,
    poll: poll ? serializePoll({ ...poll, votedAnswerId: marks.votes.get(poll.poll.id) ?? null }, owner) : null,
    isBookmarked: marks.bookmarks.has(row.id),
  };
}

/**
 * An item as the API sends it to one viewer: whether they bookmarked it, the poll as they may see it (results
 * after voting, always for the artist), and for the artist their own schedule.
 */
export function viewItem(details: ItemDetails, viewerId: string, marks: Marks): ContentItem {
  return { ...details.shown, ...viewerFields(details, viewerId, marks) };
}

/** The JSON text of what every viewer sees of an item, without its closing brace (made once per cached list). */
export const sharedItemJson = (details: ItemDetails) => JSON.stringify(details.shown).slice(0, -1);

/**
 * viewItem as JSON text, from the item's shared text: a hot list answers each viewer by appending their few fields
 * instead of building and serialising every item again (the same text JSON.stringify(viewItem(…)) gives).
 */
export function viewItemJson(details: ItemDetails, sharedJson: string, viewerId: string, marks: Marks) {
  const { schedule, poll, isBookmarked } = viewerFields(details, viewerId, marks);
  const scheduleJson = schedule ? `,"schedule":${JSON.stringify(schedule)}` : '';
  return `${sharedJson}${scheduleJson},"poll":${JSON.stringify(poll)},"isBookmarked":${isBookmarked}}`;
}

/**
 * What of a shared list differs from one viewer to the next, as text: whether they own it, and which of its items
 * they bookmarked or voted on. Viewers with the same key are sent the same bytes (kept by the list route).
 */
export function viewerKey(items: readonly { details: ItemDetails }[], owner: boolean, marks: Marks) {
  let key = owner ? 'owner' : 'fan';
  for (const [index, { details }] of items.entries()) {
    if (marks.bookmarks.has(details.row.id)) key += ` b${index}`;
    const voted = details.poll ? marks.votes.get(details.poll.poll.id) : undefined;
    if (voted) key += ` v${index}:${voted}`;
    // A poll that has closed since the list was read shows its results to everyone.
    if (details.poll && isPollClosed(details.poll.poll.closesAt)) key += ` c${index}`;
  }
  return key;
}

/** Items for one viewer, built afresh (after a write, an item page, lists that are not hot); the marks are the cached ones. */
export async function serializeItems(reads: Reads, signer: MediaSigner, rows: ItemRow[], viewerId: string) {
  const [details, marks] = await Promise.all([itemDetails(reads.db, signer, rows, viewerId), loadMarks(reads, viewerId)]);
  return details.map((entry) => viewItem(entry, viewerId, marks));
}

export type ItemResponse = ReturnType<typeof viewItem>;
