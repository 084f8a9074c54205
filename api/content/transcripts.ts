import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseTranscript, transcriptMessages, type Cue } from '#contract/transcript';
import { tag } from '../cache/tags.js';
import { one } from '../db/client.js';
import { badRequest, ok, parse } from '../http.js';
import { findMediaByIds } from '../media/queries.js';
import { requireOwnItem, requireReadableItem } from './guard.js';
import type { ContentServices } from './services.js';

const TranscriptBody = z.object({ transcript: z.string({ error: transcriptMessages.empty }) });

/**
 * An item's captions and transcript (docs/listening.md): timed lines its artist adds to any track or video, from a
 * WebVTT file or typed as timed paragraphs. Stored as the lines (`transcript_cues`) and their text (`transcript`),
 * which the vault's search reads.
 */
export function transcriptRoutes(app: FastifyInstance, services: ContentServices) {
  const { db } = services;

  /** The lines, for whoever may read the item (a lapsed fan too, for what they keep): `{ cues }`, empty when none. */
  app.get<{ Params: { id: string } }>('/content/:id/transcript', async (request) => {
    const { item } = await requireReadableItem(services, request, request.params.id, { allowKept: true });
    // Kept with the artist's content: the lines change only through the PUT below, which clears that tag.
    const cues = await services.cache.read(`transcript:${item.id}`, async () => {
      const row = await one<{ cues: Cue[] | null }>(db, 'SELECT transcript_cues AS cues FROM content_items WHERE id = $1', [item.id]);
      return { value: row?.cues ?? [], tags: [tag.content(item.artistId)] };
    });
    return ok({ cues });
  });

  /** The artist sets the lines (`{ transcript }`: WebVTT or timed paragraphs); an empty text removes them. */
  app.put<{ Params: { id: string } }>('/content/:id/transcript', async (request) => {
    const { item } = await requireOwnItem(services, request, request.params.id);
    const media = item.mediaId ? (await findMediaByIds(db, [item.mediaId])).get(item.mediaId) : undefined;
    if (media?.kind !== 'audio' && media?.kind !== 'video') {
      throw badRequest(transcriptMessages.notPlayable, { transcript: [transcriptMessages.notPlayable] });
    }
    const { transcript } = parse(TranscriptBody, request.body);
    let cues: Cue[] = [];
    if (transcript.trim()) {
      const parsed = parseTranscript(transcript);
      if (typeof parsed === 'string') throw badRequest(parsed, { transcript: [parsed] });
      cues = parsed;
    }
    await db.query('UPDATE content_items SET transcript_cues = $2::jsonb, transcript = $3, updated_at = now() WHERE id = $1', [
      item.id,
      cues.length ? JSON.stringify(cues) : null,
      cues.map((cue) => cue.text).join('\n'),
    ]);
    await services.cache.invalidate(tag.content(item.artistId));
    return ok({ cues });
  });
}
