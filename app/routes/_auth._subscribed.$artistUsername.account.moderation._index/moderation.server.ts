import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import type { AuditEntry, BlockEntry, HeldEntry, ReportEntry } from '#contract/moderation-messages';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';

/** /{artist}/account/moderation: what waits for review, reports, blocked fans, muted words and the log, in parallel. */
export async function loadModeration(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const [held, reports, blocks, words, audit] = await Promise.all([
    api.get<{ data: { data: HeldEntry[] } }>('/moderation/held'),
    api.get<{ data: { data: ReportEntry[] } }>('/moderation/reports'),
    api.get<{ data: { data: BlockEntry[] } }>('/moderation/blocks'),
    api.get<{ data: { data: string[] } }>('/moderation/mute-words'),
    api.get<{ data: { data: AuditEntry[] } }>('/moderation/audit'),
  ]);
  return json(
    {
      artist: { username: artist.username, name: artist.name },
      held: held.data.data,
      reports: reports.data.data,
      blocks: blocks.data.data,
      words: words.data.data,
      audit: audit.data.data,
      done: new URL(args.request.url).searchParams.get('done'),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

const id = z.string().check(z.minLength(1), z.maxLength(100));
const kind = z.enum(['comment', 'message']);
const ModerationIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('unblock'), fanId: id }),
  z.object({
    intent: z.literal('add-word'),
    word: z.string({ error: 'Please enter a word to mute.' }).check(z.trim(), z.minLength(1, 'Please enter a word to mute.')),
  }),
  z.object({ intent: z.literal('remove-word'), word: id }),
  z.object({ intent: z.literal('approve'), kind, id }),
  z.object({ intent: z.literal('delete-held'), kind, id }),
]);

const SECTION: Record<string, string> = {
  unblock: 'blocked-title',
  'add-word': 'words-title',
  'remove-word': 'words-title',
  approve: 'held-title',
  'delete-held': 'held-title',
};

/** One intent per form; then back to the page at the section that changed, saying what happened (post/redirect/get). */
export async function moderationAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const submission = parseGuardedForm(await readFormData(args.request), ModerationIntentSchema);
  if (submission.status !== 'success') {
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const value = submission.value;
  try {
    switch (value.intent) {
      case 'unblock':
        await api.delete(`/moderation/blocks/${encodeURIComponent(value.fanId)}`);
        break;
      case 'add-word':
        await api.post('/moderation/mute-words', { word: value.word });
        break;
      case 'remove-word':
        await api.delete(`/moderation/mute-words/${encodeURIComponent(value.word)}`);
        break;
      case 'approve':
        await api.post(`/moderation/held/${value.kind}/${encodeURIComponent(value.id)}/approve`, undefined, { handle: [404] });
        break;
      case 'delete-held':
        await api.delete(`/moderation/held/${value.kind}/${encodeURIComponent(value.id)}`, { handle: [404] });
        break;
    }
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error, value.intent === 'add-word' ? 'word' : undefined);
  }
  return redirect(`/${artist.username}/account/moderation?done=${value.intent}#${SECTION[value.intent]}`, 303);
}
