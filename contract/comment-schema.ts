import * as z from 'zod/mini';
import { characterCount, COMMENT_MAX, interactionMessages } from './content-rules';
import { listeningMessages } from './listening';
import { required } from './zod-required';

// A module of its own: the item page validates comments in the browser, and only this schema (not the post form's)
// should travel with it.

/**
 * A comment on an item: plain text, shown as text (never as HTML), and optionally the moment of its track or video
 * it is about (`at`, seconds from the start; the api checks it against the media).
 */
export const CommentSchema = z.object({
  text: z.string(required(interactionMessages.commentRequired)).check(
    z.trim(),
    z.minLength(1, { error: interactionMessages.commentRequired, abort: true }),
    z.refine((text) => characterCount(text) <= COMMENT_MAX, { error: interactionMessages.commentTooLong }),
  ),
  at: z.optional(z.nullable(z.number({ error: listeningMessages.atFormat }).check(z.gte(0, { error: listeningMessages.atFormat })))),
});
