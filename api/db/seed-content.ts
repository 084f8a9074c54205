import { Readable } from 'node:stream';
import type { ContentType } from '#contract/content-types';
import { loadSharp, storeImageVariants } from '../media/images.js';
import { PEAKS_POINTS } from '#contract/content';
import { insertMedia, newStorageKey } from '../media/queries.js';
import { toneWav } from '../media/wav.js';
import type { MediaStorage } from '../storage/storage.js';
import { one, type Db } from './client.js';

/**
 * Demo content for the seeded artists, so a fresh install has something to browse: posts, a poll, an
 * announcement, a ticket presale, vault items with small generated media (a few seconds of WAV tone, PNG art
 * made with sharp) and a collection; for the artist, a draft and a scheduled item too. An artist who already has
 * any content is left alone, so seeding again changes nothing. About 40 KB of media per audio item, 10–30 KB
 * per picture.
 */

interface Art {
  /** Two colours of the artist's palette and a shape, so each picture looks like that artist's. */
  from: string;
  to: string;
  shape: 'rings' | 'sun';
}

interface DemoItem {
  type: ContentType;
  title: string;
  /** Sanitised caption HTML (the seed writes it as the API would store it). */
  content: string;
  /** How long ago it was published; negative: scheduled for later. */
  daysAgo: number;
  state?: 'draft' | 'scheduled' | 'published';
  /** A tone of this pitch (Hz) as the item's audio. */
  tone?: number;
  /**
   * A picture as the item's thumbnail (audio, text) or as its media (photo). The demo gives pictures to its photos
   * only: the other items show the artwork drawn from their title and category (app/components/item-art.tsx).
   */
  art?: Art & { seed: number };
  photo?: boolean;
  poll?: { title: string; answers: string[] };
  presale?: { ticketUrl: string; startsInDays: number; endsInDays: number };
  inCollection?: boolean;
}

interface DemoCatalogue {
  collection: { title: string; description: string };
  items: DemoItem[];
}

const p = (...paragraphs: string[]) => paragraphs.map((text) => `<p>${text}</p>`).join('');

const NOVA: Art = { from: '#5b21b6', to: '#db2777', shape: 'rings' };
const JUNIPER: Art = { from: '#166534', to: '#eab308', shape: 'sun' };

export const DEMO_CONTENT: Record<string, DemoCatalogue> = {
  novaricci: {
    collection: {
      title: 'Neon Vespers: the sessions',
      description: 'The album as it grew, from the first voice note to the last unreleased mix, in the order it was written.',
    },
    items: [
      {
        type: 'voicenote',
        title: 'The first voice note',
        content: p('Recorded on my phone at 3 a.m. in a Turin kitchen. Everything on Neon Vespers started with this hum.'),
        daysAgo: 40,
        tone: 392,
        inCollection: true,
      },
      {
        type: 'demo',
        title: 'Glasshouse (piano demo)',
        content: p('One take, one microphone, the upright piano that never stays in tune.'),
        daysAgo: 28,
        tone: 440,
        inCollection: true,
      },
      {
        type: 'unreleased',
        title: 'Midnight Arcade (unreleased mix)',
        content: p('The mix we nearly used. <strong>Headphones on</strong> for the synth that only lives in the left ear.'),
        daysAgo: 12,
        tone: 523,
        inCollection: true,
      },
      {
        type: 'behindTheScenes',
        title: 'The studio wall, week three',
        content: p('Lyrics, chord charts and one very stern note about coffee.'),
        daysAgo: 9,
        art: { ...NOVA, seed: 4 },
        photo: true,
      },
      {
        type: 'post',
        title: 'Back in the studio',
        content: p(
          'Two new songs this week, and one of them is about you lot: the people who listen to the rough versions first.',
          'Thank you for being here while they are still unfinished.',
        ),
        daysAgo: 6,
      },
      {
        type: 'poll',
        title: 'Which B-side opens the tour?',
        content: p('You choose the first song of every show this spring. Voting closes when the tour starts.'),
        daysAgo: 4,
        poll: { title: 'Opening song', answers: ['Glasshouse', 'Midnight Arcade', 'Satellite Hymn'] },
      },
      {
        type: 'ticketPresale',
        title: 'Neon Vespers Tour: London presale',
        content: p('Members get 48 hours before general sale. Your code is below: it is yours alone.'),
        daysAgo: 2,
        presale: { ticketUrl: 'https://tickets.example.com/nova-ricci/london', startsInDays: -1, endsInDays: 2 },
      },
      {
        type: 'announcement',
        title: 'The album has a date',
        content: p('Neon Vespers is out on the first of March. Members hear it a week early, here.'),
        daysAgo: 1,
      },
      {
        type: 'session',
        title: 'String session (rough)',
        content: p('A draft for members: the quartet, before the edit.'),
        daysAgo: 0,
        state: 'draft',
        tone: 330,
      },
      {
        type: 'voicenote',
        title: 'A note from the tour bus',
        content: p('Goes out tomorrow morning.'),
        daysAgo: -1,
        state: 'scheduled',
        tone: 349,
      },
    ],
  },
  thelatenights: {
    collection: {
      title: 'Autumn tour, live',
      description: 'A recording from every night of the autumn tour.',
    },
    items: [
      {
        type: 'live',
        title: 'Live at the Barrowland',
        content: p('Glasgow, second night. The crowd sings the bridge louder than we play it.'),
        daysAgo: 30,
        tone: 294,
        inCollection: true,
      },
      {
        type: 'live',
        title: 'Live in Leeds',
        content: p('The night the van broke down and we played anyway, on borrowed amps.'),
        daysAgo: 21,
        tone: 330,
        inCollection: true,
      },
      {
        type: 'session',
        title: 'Rehearsal room, 2 a.m.',
        content: p('A new song with no name yet. Vote for a name, or suggest a better one in the comments.'),
        daysAgo: 14,
        tone: 262,
        poll: { title: 'Name the new song', answers: ['Two A.M.', 'Rehearsal Room Blues', 'Untitled Number Four'] },
      },
      {
        type: 'tourDiary',
        title: 'Tour diary: day one',
        content: p('Four people, one van, eleven guitars. Written by whoever is not driving, which today was Callum.'),
        daysAgo: 10,
      },
      {
        type: 'poll',
        title: 'Encore vote',
        content: p('One song for the encore in Manchester. You pick.'),
        daysAgo: 5,
        poll: { title: 'Which encore?', answers: ['Streetlights', 'Last Train Home', 'Something new'] },
      },
      {
        type: 'ticketPresale',
        title: 'Winter shows presale',
        content: p('Headline shows in December. Members first, as always.'),
        daysAgo: 3,
        presale: { ticketUrl: 'https://tickets.example.com/the-late-nights/winter', startsInDays: -1, endsInDays: 3 },
      },
      {
        type: 'announcement',
        title: 'A new record, recorded live',
        content: p('Album four will be made the way we play: all in one room, all at once.'),
        daysAgo: 1,
      },
    ],
  },
  juniperlane: {
    collection: {
      title: 'Front porch songs',
      description: 'Songs written and recorded on the porch, one summer.',
    },
    items: [
      {
        type: 'voicenote',
        title: 'A melody for the morning',
        content: p('Hummed before the coffee was ready. It might become something.'),
        daysAgo: 25,
        tone: 392,
        inCollection: true,
      },
      {
        type: 'session',
        title: 'Porch session: Blue Ridge Lullaby',
        content: p('Guitar, the creak of the rocking chair and a very patient dog.'),
        daysAgo: 16,
        tone: 349,
        inCollection: true,
      },
      {
        type: 'photo',
        title: 'Evening light on the porch',
        content: p('Where every song here was written.'),
        daysAgo: 8,
        art: { ...JUNIPER, seed: 3 },
        photo: true,
      },
      {
        type: 'post',
        title: 'A letter for September',
        content: p('The first cold morning came today. I wrote two verses and threw away one. Here is the one I kept.'),
        daysAgo: 6,
      },
      {
        type: 'poll',
        title: 'What should I play next?',
        content: p('The next porch session is yours to choose.'),
        daysAgo: 3,
        poll: { title: 'Next porch session', answers: ['An old favourite', 'A brand new song', 'A cover you suggest'] },
      },
      {
        type: 'announcement',
        title: 'Still free, always',
        content: p('Thank you to everyone who asked how to pay: you do not need to. Pass a song on instead.'),
        daysAgo: 1,
      },
    ],
  },
};

/** Square art in the artist's colours (no text: no fonts needed), as PNG. */
export async function artPng(art: Art & { seed: number }, size = 640) {
  const c = size / 2;
  const shapes: Record<Art['shape'], string> = {
    rings: [0, 1, 2, 3]
      .map(
        (n) =>
          `<circle cx="${c + (art.seed - 2) * 30}" cy="${c}" r="${80 + n * 55}" fill="none" stroke="#fff" stroke-opacity="${0.5 - n * 0.1}" stroke-width="${14 - n * 3}"/>`,
      )
      .join(''),
    sun:
      `<circle cx="${c}" cy="${size * 0.55}" r="${110 + art.seed * 10}" fill="#fde047"/>` +
      `<path d="M0 ${size * 0.7} Q ${c * 0.6} ${size * 0.55} ${c} ${size * 0.68} T ${size} ${size * 0.62} V ${size} H 0 Z" fill="#14532d"/>` +
      `<path d="M0 ${size * 0.82} Q ${c} ${size * 0.7} ${size} ${size * 0.85} V ${size} H 0 Z" fill="#052e16"/>`,
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="${art.seed % 2 ? 1 : 0}" y2="1">
      <stop offset="0" stop-color="${art.from}"/><stop offset="1" stop-color="${art.to}"/></linearGradient></defs>
    <rect width="${size}" height="${size}" fill="url(#g)"/>${shapes[art.shape]}</svg>`;
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png({ palette: true, colours: 64, compressionLevel: 9 }).toBuffer();
}

/** Stores bytes as one media row of the artist, as an upload would (images with their thumbnail and display sizes). */
async function storeMedia(db: Db, storage: MediaStorage, ownerId: string, kind: 'image' | 'audio', bytes: Buffer, name: string) {
  const key = newStorageKey();
  const { size } = await storage.write(key, Readable.from([bytes]));
  const image = kind === 'image' ? await storeImageVariants(storage, key, bytes) : undefined;
  const mime = kind === 'image' ? 'image/png' : 'audio/wav';
  // The demo's sounds are ready as stored (no job processes them, so none announces their old items): their
  // duration and waveform are read here from the 8-bit PCM toneWav writes.
  const sound = kind === 'audio' ? toneFacts(bytes) : {};
  return (await insertMedia(db, { ownerId, kind, key, mime, size, image, originalName: name, ...sound })).id;
}

/** The duration and PEAKS_POINTS-point waveform of a toneWav file (mono, 8 bits, its rate at byte 24). */
function toneFacts(wav: Buffer) {
  const rate = wav.readUInt32LE(24);
  const samples = wav.subarray(44);
  const points = new Array<number>(PEAKS_POINTS).fill(0);
  for (let i = 0; i < samples.length; i++) {
    const point = Math.floor((i * PEAKS_POINTS) / samples.length);
    points[point] = Math.max(points[point], Math.abs(samples[i] - 128));
  }
  const loudest = Math.max(...points) || 1;
  return { duration: samples.length / rate, peaks: points.map((level) => Math.round((level / loudest) * 1000) / 1000) };
}

/**
 * Adds the demo content of each artist given (username → user id) that has none yet; answers whose it added.
 * Items are written as the API stores them: visible to subscribed fans by the same rule (published and due).
 */
export async function seedDemoContent(db: Db, storage: MediaStorage, artists: Map<string, string>): Promise<string[]> {
  const seeded: string[] = [];
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  for (const [username, artistId] of artists) {
    const catalogue = DEMO_CONTENT[username];
    if (!catalogue) continue;
    const any = await one(db, 'SELECT 1 FROM content_items WHERE artist_id = $1 LIMIT 1', [artistId]);
    if (any) continue;
    const inCollection: string[] = [];
    let cover: string | null = null;
    for (const [index, item] of catalogue.items.entries()) {
      const slug = item.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      const picture = item.art ? await storeMedia(db, storage, artistId, 'image', await artPng(item.art), `${slug}.png`) : null;
      const audio = item.tone ? await storeMedia(db, storage, artistId, 'audio', toneWav(item.tone), `${slug}.wav`) : null;
      const mediaId = item.photo ? picture : audio;
      const thumbnailId = item.photo ? null : picture;
      // Whole minutes, a little apart, so items of the same day keep the catalogue's order.
      const publishAt = new Date(now - item.daysAgo * day - (catalogue.items.length - index) * 60_000);
      const state = item.state ?? 'published';
      const row = await one<{ id: string }>(
        db,
        `INSERT INTO content_items (artist_id, type, title, content, thumbnail_id, media_id, state, scheduled, publish_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9) RETURNING id`,
        [artistId, item.type, item.title, item.content, thumbnailId, mediaId, state, state === 'scheduled', publishAt],
      );
      const itemId = row!.id;
      if (item.poll) {
        const poll = await one<{ id: string }>(db, 'INSERT INTO polls (item_id, title) VALUES ($1, $2) RETURNING id', [
          itemId,
          item.poll.title,
        ]);
        for (const [position, text] of item.poll.answers.entries()) {
          await db.query('INSERT INTO poll_answers (poll_id, position, text) VALUES ($1, $2, $3)', [poll!.id, position, text]);
        }
      }
      if (item.presale) {
        await db.query('INSERT INTO ticket_presales (item_id, ticket_url, sale_starts_at, sale_ends_at) VALUES ($1, $2, $3, $4)', [
          itemId,
          item.presale.ticketUrl,
          new Date(now + item.presale.startsInDays * day),
          new Date(now + item.presale.endsInDays * day),
        ]);
      }
      if (item.inCollection) {
        inCollection.push(itemId);
        cover ??= picture;
      }
    }
    if (inCollection.length) {
      const collection = await one<{ id: string }>(
        db,
        'INSERT INTO collections (artist_id, title, description, cover_id) VALUES ($1, $2, $3, $4) RETURNING id',
        [artistId, catalogue.collection.title, catalogue.collection.description, cover],
      );
      for (const [position, itemId] of inCollection.entries()) {
        await db.query('INSERT INTO collection_items (collection_id, item_id, position) VALUES ($1, $2, $3)', [
          collection!.id,
          itemId,
          position,
        ]);
      }
    }
    seeded.push(username);
  }
  return seeded;
}
