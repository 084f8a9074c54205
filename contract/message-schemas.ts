import * as z from 'zod';
import { MESSAGE_MAX_LENGTH, messageErrors } from './messages';

export { MESSAGE_MAX_LENGTH, messageErrors };

/**
 * The rule for a message's text as a zod schema, for the send action and the api. The conversation page checks
 * the same rule in the browser with messageTextError (messages.ts), so that the page does not ship zod; a unit
 * test holds the two to the same answers.
 */
export const MessageTextSchema = z
  .string({ error: messageErrors.empty })
  .trim()
  .min(1, { error: messageErrors.empty, abort: true })
  .max(MESSAGE_MAX_LENGTH, { error: messageErrors.tooLong });

/** What the send form posts: the text, and the id the client made for it so that a resend is not a second message. */
export const SendMessageSchema = z.object({
  text: MessageTextSchema,
  clientId: z.string().trim().min(1).max(100).optional(),
});
