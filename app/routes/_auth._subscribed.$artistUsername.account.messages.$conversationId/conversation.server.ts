import { json, redirect, type ActionFunctionArgs } from '@remix-run/node';
import * as z from 'zod';
import { SendMessageSchema } from '#contract/message-schemas';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireUser, safeRedirect } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { deleteMessage, readAll, sendMessage } from '~/utils/messages.server';
import { moderationMessages } from '#contract/moderation-messages';

/** Sent by the page's fetchers: the page stays as it is and wants the reply, not the way back to itself. */
const stay = z.literal('true').optional();

/**
 * The conversation page's forms, told apart by `intent`: send a message (its clientId makes a resend the same
 * message), delete one of the viewer's, and mark the conversation read (a fetcher, as messages arrive).
 */
const ConversationIntentSchema = z.discriminatedUnion('intent', [
  SendMessageSchema.extend({ intent: z.literal('send'), stay }),
  z.object({ intent: z.literal('delete'), messageId: z.string().min(1).max(100), stay }),
  z.object({ intent: z.literal('read') }),
]);

/**
 * Send, delete and mark read. Without JavaScript a send or a delete comes back to the conversation's end
 * (post/redirect/get); the page's fetchers get conform's reply. A refusal is the reply with the api's reason.
 */
export async function conversationAction(args: ActionFunctionArgs) {
  const { request, params } = args;
  const api = apiFor(args);
  await requireUser(api);
  const submission = parseGuardedForm(await readFormData(request), ConversationIntentSchema);
  if (submission.status !== 'success') {
    // A form that names no intent we know is not one of this page's forms.
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const conversationId = params.conversationId ?? '';
  const value = submission.value;
  const url = new URL(request.url);
  const backToLatest = () => redirect(safeRedirect(`${url.pathname}${url.search}#latest`), 303);

  switch (value.intent) {
    case 'send':
      try {
        // Held for the artist's review: said on the form, which starts empty again.
        if ((await sendMessage(api, conversationId, value.text, value.clientId)) === 'held') {
          return formReply(submission, { formErrors: [moderationMessages.heldMessage], resetForm: true }, 200);
        }
      } catch (error) {
        if (!isHttpError(error)) throw error;
        return apiErrorReply(submission, error);
      }
      return value.stay ? json(submission.reply({ resetForm: true })) : backToLatest();
    case 'delete':
      try {
        await deleteMessage(api, value.messageId);
      } catch (error) {
        // Already gone (deleted in another tab) is what the fan wanted; someone else's message is refused.
        if (!isHttpError(error)) throw error;
        if (error.status !== 404) return apiErrorReply(submission, error);
      }
      return value.stay ? json(submission.reply()) : backToLatest();
    case 'read':
      try {
        await readAll(api, conversationId);
      } catch (error) {
        // In the background while the page is open: nothing to show, and no reason to replace the page.
        if (!(error instanceof Response) && !isHttpError(error)) throw error;
      }
      return json(submission.reply());
  }
}
