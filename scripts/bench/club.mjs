// The two club sizes the throughput part measures every page at. The small club is The Late Nights as
// seeded, with the pages the bench makes through the api (app.mjs) and one full page of comments and messages; the
// large club is a second artist with the same pages and then, in bulk SQL (generate_series in the database, not the
// api one row at a time), a real club's size around them. Each page must cost about the same at both sizes.
import { ARTIST, FAN } from './app.mjs';

export const LARGE_ARTIST = 'largeclub';
export const LARGE_ARTIST_EMAIL = 'largeclub@bench.stagedoor.test';
const LARGE_FAN_DOMAIN = 'large.bench.stagedoor.test';

/** The large club: fans (the seed fan among them), items, comments, conversations and their messages. */
export const LARGE = {
  fans: 10_000,
  items: 2_000,
  commentsOnMeasured: 200,
  comments: 100_000,
  conversations: 500,
  messages: 1_000_000,
  collectionItems: 100,
  collections: 50,
  bookmarks: 200,
};

/**
 * The small club: one full page of each list a measured page shows (comments on each measured item, messages in the
 * fan's conversation, the collection's items, the artist's collections, the fan's bookmarks, the artist's inbox;
 * VAULT_PAGE_SIZE and the studio's collections page are 24, the inbox 50), so the two sizes compare a page's growth,
 * not an empty list against a full one. Its fans each have a conversation with the artist.
 */
export const SMALL = {
  fans: 50,
  commentsOnMeasured: 20,
  messages: 40,
  conversations: 50,
  conversationMessages: 100,
  collectionItems: 24,
  collections: 24,
  bookmarks: 24,
};
const SMALL_FAN_DOMAIN = 'small.bench.stagedoor.test';

async function timed(label, fn) {
  const began = Date.now();
  const result = await fn();
  console.log(`  club: ${label} (${((Date.now() - began) / 1000).toFixed(1)} s)`);
  return result;
}

/**
 * The large club's artist: a copy of The Late Nights' account (same password, same paid offer and images) under
 * another name, and the seed fan's subscription to it. Run before the api makes the club's pages.
 */
export async function createLargeArtist(query) {
  const [artist] = await query(
    `INSERT INTO users (username, email, name, avatar, password_hash, is_performer)
     SELECT $1, $2, 'The Large Club', avatar, password_hash, true FROM users WHERE lower(username) = $3
     RETURNING id`,
    [LARGE_ARTIST, LARGE_ARTIST_EMAIL, ARTIST],
  );
  await query(
    `INSERT INTO artist_profiles
     SELECT (jsonb_populate_record(NULL::artist_profiles, to_jsonb(p) || jsonb_build_object('user_id', $1::text,
       'stripe_product_id', NULL, 'payout_account_id', NULL))).*
     FROM artist_profiles p JOIN users u ON u.id = p.user_id WHERE lower(u.username) = $2`,
    [artist.id, ARTIST],
  );
  await query(
    `INSERT INTO subscriptions
     SELECT (jsonb_populate_record(NULL::subscriptions, to_jsonb(s) || jsonb_build_object('id', gen_random_uuid()::text,
       'artist_id', $1::text, 'gateway_subscription_id', NULL))).*
     FROM subscriptions s JOIN users f ON f.id = s.user_id JOIN users a ON a.id = s.artist_id
     WHERE lower(f.email) = $2 AND lower(a.username) = $3`,
    [artist.id, FAN.email, ARTIST],
  );
}

const fanId = async (query) => (await query('SELECT id FROM users WHERE lower(email) = $1', [FAN.email]))[0].id;
const measuredIds = (club) => Object.values(club.items).map((item) => item._id);

/** The small club: a full page of each list (SMALL), as the large club has more than a page of each. */
export async function fillSmallClub(query, club) {
  const fan = await fanId(query);
  await timed(`small club: ${SMALL.commentsOnMeasured} comments on each measured item, ${SMALL.messages} messages`, async () => {
    await query(
      `INSERT INTO comments (item_id, author_id, text, created_at)
       SELECT i.id, $2, 'Comment ' || g || ': the bridge is the best part, play it live please.', now() - g * interval '1 minute'
       FROM unnest($1::text[]) i(id), generate_series(1, $3) g`,
      [measuredIds(club), fan, SMALL.commentsOnMeasured],
    );
    await addMessages(query, [club.conversationId], SMALL.messages);
  });
  await quietFanOut(query, club.artistId);
  await timed(`small club: ${SMALL.fans - 1} more fans subscribed, ${SMALL.conversations} conversations`, async () => {
    await addFans(query, club.artistId, { count: SMALL.fans - 1, prefix: 'smallfan', domain: SMALL_FAN_DOMAIN });
    await addConversations(query, club.artistId, {
      count: SMALL.conversations - 1,
      domain: SMALL_FAN_DOMAIN,
      messages: SMALL.conversationMessages,
    });
  });
  await timed(
    `small club: ${SMALL.collectionItems} items in the collection, ${SMALL.collections} collections, ${SMALL.bookmarks} bookmarks`,
    () => fillLists(query, club, fan, SMALL),
  );
}

/**
 * The club's posts were announced to the one fan it had when the api made them: their fan-out (a job a post, then a
 * mail a fan) must not start again for the fans added below while the pages are measured. Every item counts as
 * announced, and the notification and mail jobs still waiting are dropped (pg-boss's table, JOBS_SCHEMA's default;
 * the server is stopped).
 */
async function quietFanOut(query, artist) {
  await query('UPDATE content_items SET notified_at = coalesce(notified_at, now()) WHERE artist_id = $1', [artist]);
  await query(
    `DELETE FROM pgboss.job WHERE name IN ('content.visible', 'notify.batch', 'mail') AND state::text IN ('created', 'retry', 'active')`,
  );
}

/** `count` fans (`{prefix}{n}@{domain}`), each subscribed to the artist for a year since a month ago. */
async function addFans(query, artist, { count, prefix, domain }) {
  await query(
    `INSERT INTO users (username, email, name, password_hash)
     SELECT $3 || g, $3 || g || '@' || $2, 'Fan ' || g, 'not-used' FROM generate_series(1, $1::int) g`,
    [count, domain, prefix],
  );
  await query(
    `INSERT INTO subscriptions (user_id, artist_id, status, type, expires_at, started_at, created_at)
     SELECT id, $1, 'active', 'free', now() + interval '1 year', now() - interval '30 days', now() - interval '30 days'
     FROM users WHERE email LIKE '%@' || $2`,
    [artist, domain],
  );
}

/**
 * A conversation with the artist for `count` of the fans of `domain`, then `messages` messages shared out over all
 * the artist's conversations (the seed fan's too), each conversation's last message set as the api would.
 */
async function addConversations(query, artist, { count, domain, messages }) {
  await query(
    `INSERT INTO conversations (fan_id, artist_id, created_at)
     SELECT id, $1, now() - interval '90 days' FROM users WHERE email LIKE '%@' || $2 ORDER BY id LIMIT $3`,
    [artist, domain, count],
  );
  await query(
    `INSERT INTO conversation_members (conversation_id, user_id)
     SELECT c.id, m.user_id FROM conversations c, LATERAL (VALUES (c.fan_id), (c.artist_id)) m(user_id)
     WHERE c.artist_id = $1 AND c.last_message_id IS NULL`,
    [artist],
  );
  const conversations = (await query('SELECT id FROM conversations WHERE artist_id = $1 ORDER BY id', [artist])).map((r) => r.id);
  const per = Math.round(messages / conversations.length);
  // In batches, so PGlite's memory stays small.
  for (let i = 0; i < conversations.length; i += 50) await addMessages(query, conversations.slice(i, i + 50), per);
  await query(
    `UPDATE conversations c SET (last_message_id, last_message_text, last_message_at) =
       (SELECT m.id, m.text, m.created_at FROM messages m WHERE m.conversation_id = c.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1)
     WHERE c.artist_id = $1 AND c.last_message_id IS NULL`,
    [artist],
  );
}

/**
 * The measured collection filled to `collectionItems` with the club's other items (newest first, after the three it
 * was made with), the artist's collections to `collections` in all, the fan's bookmarks to `bookmarks` in all (the
 * measured items are bookmarked already).
 */
async function fillLists(query, club, fan, { collectionItems, collections, bookmarks }) {
  const measured = measuredIds(club);
  const others = `SELECT id, row_number() OVER (ORDER BY publish_at DESC, id DESC) AS n FROM content_items
     WHERE artist_id = $1 AND NOT (id = ANY($2::text[]))`;
  await query(
    `INSERT INTO collection_items (collection_id, item_id, position)
     SELECT $3, id, 2 + n FROM (${others}) x WHERE n <= $4`,
    [club.artistId, measured, club.collectionId, collectionItems - 3],
  );
  await query(
    `INSERT INTO collections (artist_id, title, description, created_at, updated_at)
     SELECT $1, 'Archive collection ' || g, '', now() - interval '2 days' - g * interval '1 day', now() - interval '2 days'
     FROM generate_series(1, $2::int) g`,
    [club.artistId, collections - 1],
  );
  await query(
    `INSERT INTO bookmarks (user_id, item_id, created_at)
     SELECT $3, id, now() - interval '1 day' - n * interval '1 minute' FROM (${others}) x WHERE n <= $4`,
    [club.artistId, measured, fan, bookmarks - measured.length],
  );
}

/** Older messages in each conversation, alternately from its fan and its artist (the api's newest stay newest). */
async function addMessages(query, conversationIds, perConversation) {
  await query(
    `INSERT INTO messages (conversation_id, sender_id, text, created_at)
     SELECT c.id, CASE WHEN g % 2 = 0 THEN c.fan_id ELSE c.artist_id END,
       'Message ' || g || ': see you at the show, we will be at the front.',
       now() - interval '1 day' - ($2::int - g) * interval '1 minute'
     FROM conversations c, generate_series(1, $2::int) g WHERE c.id = ANY($1::text[])`,
    [conversationIds, perConversation],
  );
}

/**
 * The large club around the pages the api made: LARGE.fans fans subscribed (the seed fan is one), LARGE.items items
 * in all (older than the measured ones), LARGE.commentsOnMeasured comments on each measured item and
 * LARGE.comments in all, LARGE.conversations conversations with LARGE.messages messages in all (the fan's among
 * them), every fan's presale code and vote, a collection of LARGE.collectionItems items among LARGE.collections,
 * and LARGE.bookmarks bookmarks of the fan. Then ANALYZE, as autovacuum would have done by then.
 */
export async function fillLargeClub(query, club) {
  const fan = await fanId(query);
  const artist = club.artistId;
  const measured = measuredIds(club);
  const began = Date.now();
  await quietFanOut(query, artist);
  await timed(`large club: ${LARGE.fans - 1} more fans subscribed`, () =>
    addFans(query, artist, { count: LARGE.fans - 1, prefix: 'largefan', domain: LARGE_FAN_DOMAIN }),
  );
  await timed(`large club: items up to ${LARGE.items}`, async () => {
    const [{ count }] = await query('SELECT count(*)::int AS count FROM content_items WHERE artist_id = $1', [artist]);
    const [{ thumbnail }] = await query(
      'SELECT thumbnail_id AS thumbnail FROM content_items WHERE artist_id = $1 AND thumbnail_id IS NOT NULL LIMIT 1',
      [artist],
    );
    await query(
      `INSERT INTO content_items (artist_id, type, title, content, thumbnail_id, state, publish_at, created_at, updated_at, notified_at)
       SELECT $1, (ARRAY['post', 'demo', 'voicenote', 'tourDiary', 'announcement', 'unreleased', 'behindTheScenes',
           'session', 'live', 'videoMessage', 'musicVideo'])[1 + g % 11],
         'Archive item ' || g, '<p>From the archive: number ' || g || '.</p>', CASE WHEN g % 3 = 0 THEN $3 END,
         'published', now() - interval '2 days' - g * interval '1 hour', now() - interval '2 days' - g * interval '1 hour',
         now() - interval '2 days', now() - interval '2 days'
       FROM generate_series(1, $2::int) g`,
      [artist, LARGE.items - count, thumbnail],
    );
  });
  const fans = `(SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE email LIKE '%@${LARGE_FAN_DOMAIN}')`;
  await timed(`large club: ${LARGE.comments} comments (${LARGE.commentsOnMeasured} on each measured item)`, async () => {
    await query(
      `INSERT INTO comments (item_id, author_id, text, created_at)
       SELECT i.id, f.ids[1 + (g * 7919) % array_length(f.ids, 1)], 'Comment ' || g || ': the bridge is the best part, play it live please.',
         now() - g * interval '1 minute'
       FROM unnest($1::text[]) i(id), generate_series(1, $2::int) g, ${fans} f`,
      [measured, LARGE.commentsOnMeasured],
    );
    await query(
      `INSERT INTO comments (item_id, author_id, text, created_at)
       SELECT it.ids[1 + g % array_length(it.ids, 1)], f.ids[1 + (g * 7919) % array_length(f.ids, 1)],
         'Comment ' || g || ': lovely, thank you for sharing this one.', now() - interval '2 days' - g * interval '10 seconds'
       FROM generate_series(1, $3::int) g, ${fans} f,
         (SELECT array_agg(id) AS ids FROM content_items WHERE artist_id = $1 AND NOT (id = ANY($2::text[]))) it`,
      [artist, measured, LARGE.comments - measured.length * LARGE.commentsOnMeasured],
    );
  });
  await timed(`large club: ${LARGE.conversations} conversations, ${LARGE.messages} messages`, () =>
    addConversations(query, artist, { count: LARGE.conversations - 1, domain: LARGE_FAN_DOMAIN, messages: LARGE.messages }),
  );
  await timed('large club: presale codes, poll votes, collections, bookmarks', async () => {
    await query(
      `INSERT INTO presale_codes (item_id, user_id, code, created_at)
       SELECT $2, s.user_id, 'LC-' || upper(substr(md5(s.user_id), 1, 12)), now() - interval '1 hour'
       FROM subscriptions s WHERE s.artist_id = $1 ON CONFLICT DO NOTHING`,
      [artist, club.items.presale._id],
    );
    await query(
      `INSERT INTO poll_votes (poll_id, user_id, answer_id)
       SELECT p.id, u.id, a.ids[1 + abs(hashtext(u.id)) % array_length(a.ids, 1)]
       FROM polls p, (SELECT array_agg(id ORDER BY position) AS ids FROM poll_answers WHERE poll_id = (SELECT id FROM polls WHERE item_id = $1)) a,
         users u
       WHERE p.item_id = $1 AND u.email LIKE '%@' || $2`,
      [club.items.poll._id, LARGE_FAN_DOMAIN],
    );
    await fillLists(query, club, fan, LARGE);
  });
  await timed('large club: ANALYZE', () => query('ANALYZE'));
  console.log(`  club: the large club took ${((Date.now() - began) / 1000).toFixed(0)} s to seed`);
}
