import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import { pollMessages } from '#contract/content-rules';
import { CommentSchema } from '#contract/comment-schema';
import { listeningMessages, parseAt } from '#contract/listening';
import { TRANSCRIPT_MAX, transcriptMessages } from '#contract/transcript';
import { apiFor, isHttpError } from './api.server';
import { requireUser, safeRedirect } from './auth.server';
import { parseGuardedForm, readFormData } from './form-guard.server';
import { apiErrorReply, formReply } from './form-reply.server';

const id = z.string().check(z.minLength(1));
/** The comment form's moment as the fan writes it ("1:23", or empty for the whole track). */
const CommentMomentField = z.optional(
  z.string().check(z.refine((value) => parseAt(value) !== undefined, { error: listeningMessages.atFormat })),
);
const answer = z.string({ error: pollMessages.answerRequired }).check(z.minLength(1, { error: pollMessages.answerRequired }));

/** The plain forms of the content pages, told apart by `intent`; each names the item (or poll) it concerns. */
const ContentIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('vote'), pollId: id, answerId: answer }),
  z.object({ intent: z.literal('unvote'), pollId: id }),
  z.object({ intent: z.literal('comment'), itemId: id, text: CommentSchema.shape.text, at: CommentMomentField }),
  z.object({ intent: z.literal('delete-comment'), itemId: id, commentId: id }),
  z.object({ intent: z.literal('hide-comment'), itemId: id, commentId: id, hidden: z.enum(['true', 'false']) }),
  z.object({ intent: z.literal('bookmark'), itemId: id, bookmarked: z.optional(z.enum(['true', 'false'])) }),
  z.object({ intent: z.literal('revoke-code'), itemId: id, codeId: id }),
  z.object({
    intent: z.literal('transcript'),
    itemId: id,
    transcript: z.optional(z.string()),
    captionsFile: z.optional(z.file().check(z.maxSize(TRANSCRIPT_MAX * 4, { error: transcriptMessages.tooLong }))),
  }),
]);

export type ContentIntent = z.output<typeof ContentIntentSchema>['intent'];

const enc = encodeURIComponent;

/**
 * The action of every content page (the artist home, posts, an item): vote (or change or remove one's vote), comment,
 * delete a comment, bookmark, revoke a presale code. Success redirects back to the same page at the part that changed (post/redirect/get); a
 * refusal, of the form or of the api, is the form's submission reply with the message on its field.
 */
export async function contentAction({ request, context, params }: ActionFunctionArgs) {
  const api = apiFor({ request, context, params });
  await requireUser(api);
  const submission = parseGuardedForm(await readFormData(request), ContentIntentSchema);
  if (submission.status !== 'success') {
    // A form that names no intent we know is not one of our pages' forms.
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const url = new URL(request.url);
  const back = (hash: string) => redirect(safeRedirect(`${url.pathname}${url.search}${hash}`), 303);
  const value = submission.value;
  try {
    switch (value.intent) {
      case 'vote':
        await api.post(`/polls/${enc(value.pollId)}/vote`, { answerId: value.answerId });
        return back(`#poll-${value.pollId}`);
      case 'unvote':
        await api.delete(`/polls/${enc(value.pollId)}/vote`);
        return back(`#poll-${value.pollId}`);
      case 'comment': {
        const at = parseAt(value.at) ?? undefined;
        const created = await api.post<{ data: { _id: string } }>(`/content/${enc(value.itemId)}/comments`, { text: value.text, at });
        // Back to the first page of comments, where the newest one is (and, without JavaScript, the player at the
        // moment the comment is about).
        url.searchParams.delete('commentsOffset');
        url.searchParams.delete('commentId');
        if (at !== undefined) url.searchParams.set('t', String(Math.floor(at)));
        return redirect(safeRedirect(`${url.pathname}${url.search}#comment-${created.data._id}`), 303);
      }
      case 'hide-comment':
        await api.post(`/moderation/comments/${enc(value.commentId)}/${value.hidden === 'true' ? 'hide' : 'unhide'}`);
        return back(`#comment-${value.commentId}`);
      case 'delete-comment':
        await api.delete(`/comments/${enc(value.commentId)}`);
        if (url.searchParams.get('commentId') === value.commentId) url.searchParams.delete('commentId');
        return redirect(safeRedirect(`${url.pathname}${url.search}#comments`), 303);
      case 'bookmark': {
        const path = `/content/${enc(value.itemId)}/bookmark`;
        await (value.bookmarked === 'true' ? api.post(path) : api.delete(path));
        return back(`#item-${value.itemId}`);
      }
      case 'transcript': {
        // A WebVTT file, when one is chosen, takes the place of what the box holds.
        const text = value.captionsFile?.size ? await value.captionsFile.text() : (value.transcript ?? '');
        await api.put(`/content/${enc(value.itemId)}/transcript`, { transcript: text });
        url.searchParams.delete('t');
        return back('#transcript-title');
      }
      case 'revoke-code':
        await api.delete(`/content/${enc(value.itemId)}/presale-codes/${enc(value.codeId)}`);
        return back('#presale-codes');
    }
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error, FIELD_OF[value.intent]);
  }
}

/** Where each intent's refusal is shown. */
const FIELD_OF: Record<ContentIntent, string> = {
  vote: 'answerId',
  unvote: 'answerId',
  comment: 'text',
  'delete-comment': 'comments',
  'hide-comment': 'comments',
  bookmark: 'bookmark',
  'revoke-code': 'presaleCodes',
  transcript: 'transcript',
};
