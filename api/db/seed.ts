import { hashPassword } from '../auth/passwords.js';
import { createArtist, NewArtistSchema, type ArtistProfile } from '../performers/create.js';
import { findUserByLogin } from '../users/queries.js';
import type { MediaStorage } from '../storage/storage.js';
import { MIGRATION_TIMEOUT_MS, one, type Db, type Queryable } from './client.js';
import { seedDemoContent } from './seed-content.js';

/** The demo logins (README "Demo logins"); tests sign in with them too. */
/** Any fixed number: the advisory lock keeps several nodes from seeding one empty database at once. */
export const SEED_LOCK = 727_275;

export const DEMO_FAN = {
  username: 'demofan',
  email: 'fan@stagedoor.test',
  password: 'Stagedoor-fan-2026!',
  name: 'Sam Rivera',
} as const;

export const DEMO_ARTIST_PASSWORD = 'Stagedoor-artist-2026!';

export const DEMO_ARTISTS = {
  novaricci: { username: 'novaricci', email: 'nova@stagedoor.test', name: 'Nova Ricci', yearlyPrice: 49.99 },
  thelatenights: {
    username: 'thelatenights',
    email: 'latenights@stagedoor.test',
    name: 'The Late Nights',
    yearlyPrice: 29.99,
    currency: 'gbp',
  },
  juniperlane: { username: 'juniperlane', email: 'juniper@stagedoor.test', name: 'Juniper Lane', yearlyPrice: 0 },
} as const;

/** The demo fan is subscribed to these two, so /discover shows a list rather than redirecting. */
export const DEMO_FAN_SUBSCRIPTIONS = ['juniperlane', 'thelatenights'] as const;

const images = (username: string) => ({
  avatar: `/images/seed/${username}/avatar.svg`,
  cover: `/images/seed/${username}/cover.svg`,
  heroImage: `/images/seed/${username}/hero.svg`,
  headlineImage: `/images/seed/${username}/headline.svg`,
  success: (n: number) => `/images/seed/${username}/success-${n}.svg`,
});

const privacyPolicy = (name: string) =>
  `${name} and Stagedoor use your name, email address and subscription details only to run this fan club: to ` +
  `give you access, to send you the messages you ask for, and to process your payment. We never sell your data. ` +
  `You can ask for a copy of your data or for its deletion at any time through Customer Support.`;

const PROFILES: Record<keyof typeof DEMO_ARTISTS, ArtistProfile> = {
  novaricci: (() => {
    const img = images('novaricci');
    return {
      avatar: img.avatar,
      cover: img.cover,
      heroImage: img.heroImage,
      heroImageAltText: 'Nova Ricci in white beside violet and magenta spotlight rings',
      headlineImage: img.headlineImage,
      headlineImageAltText: 'Violet spotlight rings with the words Nova Ricci, Inner Circle',
      bio:
        'Singer, songwriter and late-night piano hoarder from Turin, now writing in London. Nova’s second album, ' +
        'Neon Vespers, came out of two winters of voice notes, and this is where those voice notes live first.',
      headlineOfferDescription:
        'Join the Inner Circle: every demo, every voice note and every unreleased take from the Neon Vespers sessions, ' +
        'plus first access to tour tickets before they go on general sale.',
      subscriptionPerks: [
        'Unreleased demos and alternate takes, the week they are recorded',
        'Ticket presales 48 hours before general sale',
        'Monthly voice notes from the studio and the road',
        'Vote on setlists and B-sides in members-only polls',
        'Message Nova directly',
      ],
      successPageTitle: 'Welcome to the Inner Circle',
      secondarySuccessMessage: 'Your membership is active. Everything in the vault is yours to play now.',
      additionalSuccessMessage: 'Start with the first voice note: it is where Neon Vespers began.',
      successImages: [
        { imagePath: img.success(1), altText: 'Yellow and white confetti on violet around the words Welcome backstage' },
        { imagePath: img.success(2), altText: 'Violet spotlight rings with the words Inner Circle, members only' },
      ],
      vaultPageIntroduction:
        'The vault holds every demo, session and voice note from the Neon Vespers years, newest first. Filter by type to find the songs as they grew.',
      postsPageIntroduction: 'News from the studio and the road, polls on what comes next, and presales before anyone else.',
      privacyPolicy: privacyPolicy('Nova Ricci'),
    };
  })(),
  thelatenights: (() => {
    const img = images('thelatenights');
    return {
      avatar: img.avatar,
      cover: img.cover,
      heroImage: img.heroImage,
      heroImageAltText: 'The Late Nights in white over a city skyline under a full moon',
      headlineImage: img.headlineImage,
      headlineImageAltText: 'A full moon over the rooftops with the words The Late Nights, After Hours Club',
      bio:
        'Four friends from Glasgow who only ever rehearse after midnight. Three albums, one van, and a habit of ' +
        'playing the new songs live long before they are finished.',
      headlineOfferDescription:
        'Join the After Hours Club for live recordings from every show, rehearsal-room sessions and the tour diary, ' +
        'straight from the van.',
      subscriptionPerks: [
        'A live recording from every show on the tour',
        'Rehearsal-room sessions and works in progress',
        'The tour diary, written by whoever is not driving',
        'Ticket presales for every headline show',
      ],
      successPageTitle: 'You are in the After Hours Club',
      secondarySuccessMessage: 'Thanks for backing the band. The live archive is open.',
      additionalSuccessMessage: 'Come and say hello at the merch stand: members get the first pick of the tour posters.',
      successImages: [
        { imagePath: img.success(1), altText: 'Amber and white confetti on midnight blue around the words Welcome backstage' },
        { imagePath: img.success(2), altText: 'A full moon over the city skyline with the words After Hours Club, members only' },
      ],
      vaultPageIntroduction:
        'Every live set, session and rehearsal we have recorded. Sort by oldest to hear the songs change night by night.',
      postsPageIntroduction: 'Tour diary entries, setlist polls and presale codes, posted from the road.',
      privacyPolicy: privacyPolicy('The Late Nights'),
    };
  })(),
  juniperlane: (() => {
    const img = images('juniperlane');
    return {
      avatar: img.avatar,
      cover: img.cover,
      heroImage: img.heroImage,
      heroImageAltText: 'Juniper Lane in white above green rolling hills and a golden sun',
      headlineImage: img.headlineImage,
      headlineImageAltText: 'A golden sun over green hills with the words Juniper Lane, Front Porch',
      bio:
        'Folk songs written on a front porch in the Blue Ridge Mountains. Juniper shares everything here for free: ' +
        'the songs are for whoever needs them.',
      headlineOfferDescription:
        'Join the Front Porch for free: new songs as they are written, session recordings and a note from Juniper every month.',
      subscriptionPerks: [
        'New songs as soon as they are written',
        'Front-porch session recordings',
        'A monthly letter from Juniper',
        'Always free',
      ],
      successPageTitle: 'Welcome to the Front Porch',
      secondarySuccessMessage: 'Pull up a chair. Everything here is yours, no charge.',
      additionalSuccessMessage: 'If a song helps you, pass it on to someone who needs it too.',
      successImages: [
        { imagePath: img.success(1), altText: 'Gold and white confetti on green around the words Welcome backstage' },
        { imagePath: img.success(2), altText: 'A golden sun over green hills with the words Front Porch, members only' },
      ],
      vaultPageIntroduction: 'Songs, sessions and voice notes from the porch, in the order they were written.',
      postsPageIntroduction: 'Letters, song stories and the occasional poll about what to play next.',
      privacyPolicy: privacyPolicy('Juniper Lane'),
    };
  })(),
};

export interface SeedSummary {
  /** Usernames of the accounts this run created. */
  created: string[];
  /** Usernames that already existed and were left as they were. */
  existing: string[];
  /** The demo artists who got their demo content (posts, vault items, a collection) in this run. */
  content: string[];
}

export interface SeedOptions {
  /** Where the demo content's media goes; without it only the accounts are seeded. */
  storage?: MediaStorage;
}

/**
 * Adds the demo artists, the demo fan and the fan's subscriptions, skipping whatever already exists, so it can
 * run any number of times (`npm run db:seed`). Existing accounts are never changed. With a storage it also gives
 * each demo artist who has no content yet their demo content (api/db/seed-content.ts).
 */
export async function seed(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const summary: SeedSummary = { created: [], existing: [], content: [] };
  const artistIds = new Map<string, string>();

  for (const [username, artist] of Object.entries(DEMO_ARTISTS) as [
    keyof typeof DEMO_ARTISTS,
    (typeof DEMO_ARTISTS)[keyof typeof DEMO_ARTISTS],
  ][]) {
    const existing = (await findUserByLogin(db, username)) ?? (await findUserByLogin(db, artist.email));
    if (existing) {
      summary.existing.push(existing.username);
      if (existing.isPerformer && existing.username === username) artistIds.set(username, existing.id);
      continue;
    }
    const input = NewArtistSchema.parse({ ...artist, password: DEMO_ARTIST_PASSWORD });
    const created = await createArtist(db, input, PROFILES[username]);
    artistIds.set(username, created.id);
    summary.created.push(username);
  }

  let fan = (await findUserByLogin(db, DEMO_FAN.username)) ?? (await findUserByLogin(db, DEMO_FAN.email));
  if (fan) {
    summary.existing.push(fan.username);
  } else {
    const passwordHash = await hashPassword(DEMO_FAN.password);
    await db.query(`INSERT INTO users (username, email, name, password_hash) VALUES ($1, $2, $3, $4)`, [
      DEMO_FAN.username,
      DEMO_FAN.email,
      DEMO_FAN.name,
      passwordHash,
    ]);
    summary.created.push(DEMO_FAN.username);
    fan = await findUserByLogin(db, DEMO_FAN.username);
  }

  if (fan && fan.username === DEMO_FAN.username && !fan.isPerformer) {
    for (const username of DEMO_FAN_SUBSCRIPTIONS) {
      const artistId = artistIds.get(username);
      if (!artistId) continue;
      const artist: { yearlyPrice: number; currency?: string } = DEMO_ARTISTS[username];
      const priceCents = Math.round(artist.yearlyPrice * 100);
      await db.query(
        `INSERT INTO subscriptions (user_id, artist_id, status, type, price_paid_cents, currency, expires_at)
         VALUES ($1, $2, 'active', $3, $4, $5, now() + interval '1 year')
         ON CONFLICT (user_id, artist_id) DO NOTHING`,
        [fan.id, artistId, priceCents > 0 ? 'yearly' : 'free', priceCents, artist.currency ?? 'usd'],
      );
    }
  }
  if (options.storage) summary.content = await seedDemoContent(db, options.storage, artistIds);
  return summary;
}

/** Seeds a database that has no account yet (first start), in process or through `elsewhere` (a child process that seeds and says whether it did); answers whether it was seeded. */
export async function seedIfEmpty(db: Db, options: SeedOptions = {}, elsewhere?: () => boolean): Promise<boolean> {
  const seedIfNoAccount = async (q: Queryable) => {
    if (await one(q, 'SELECT 1 FROM users LIMIT 1')) return false;
    if (elsewhere?.()) return true;
    await seed(db, options);
    return true;
  };
  if (db.kind !== 'postgres') return seedIfNoAccount(db);
  // Several nodes starting together on one empty database: the first to take the lock seeds it (through the pool or
  // a child process, committed as it goes); the others wait for it, then find its accounts.
  return db.transaction(
    async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
      return seedIfNoAccount(tx);
    },
    { timeoutMs: MIGRATION_TIMEOUT_MS },
  );
}
