import {
  redirect,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from '@remix-run/node';
import * as z from 'zod/mini';
import {
  AVATAR_MAX_BYTES,
  DeleteAccountSchema,
  EmailChangeSchema,
  NameChangeSchema,
  PasswordChangeFields,
  passwordsMatch,
  settingsMessages,
} from '#contract/account-settings';
import { apiFor, isHttpError, type ApiClient } from '~/utils/api.server';
import { requireUser } from '~/utils/auth.server';
import { guardForm, parseGuardedForm, readFormData, unreadableForm } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { clearedSessionCookie } from '~/utils/session.server';

/** What a saved change says on the page after the redirect (post/redirect/get). */
export const SAVED = ['name', 'avatar', 'avatar-removed', 'email', 'password'] as const;
export type Saved = (typeof SAVED)[number];

export async function loadSettings(args: LoaderFunctionArgs) {
  const user = await requireUser(apiFor(args));
  const search = new URL(args.request.url).searchParams;
  const saved = SAVED.find((s) => s === search.get('saved')) ?? null;
  // Where the confirmation link went: said back to the user, never trusted for anything else.
  const pendingEmail = saved === 'email' ? (z.safeParse(EmailChangeSchema.shape.email, search.get('to')).data ?? null) : null;
  return { user, saved, pendingEmail };
}

/**
 * The page's forms, told apart by `intent`. The schemas are the api's own (contract/account-settings.ts), so the
 * browser, this action and the api say the same words.
 */
export const SettingsIntentSchema = z.discriminatedUnion('intent', [
  z.extend(NameChangeSchema, { intent: z.literal('name') }),
  z.object({ intent: z.literal('avatar') }),
  z.object({ intent: z.literal('remove-avatar') }),
  z.extend(EmailChangeSchema, { intent: z.literal('email') }),
  z.extend(PasswordChangeFields, { intent: z.literal('password') }).check(passwordsMatch),
  z.extend(DeleteAccountSchema, { intent: z.literal('delete') }),
]);

export type SettingsIntent = z.output<typeof SettingsIntentSchema>['intent'];

const HIDDEN = ['currentPassword', 'password', 'confirmPassword'];

export async function settingsAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  const { formData, file, fileError } = await readSettingsForm(args.request);
  const submission = parseGuardedForm(formData, SettingsIntentSchema);
  if (submission.status !== 'success') {
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission, { hideFields: HIDDEN });
  }
  const value = submission.value;
  try {
    switch (value.intent) {
      case 'name':
        await api.put('/users/me/name', { name: value.name });
        return redirect('/account?saved=name');
      case 'avatar': {
        if (fileError || !file) return formReply(submission, { fieldErrors: { file: [fileError ?? settingsMessages.avatarRequired] } });
        await sendAvatar(api, file);
        return redirect('/account?saved=avatar');
      }
      case 'remove-avatar':
        await api.delete('/users/me/avatar');
        return redirect('/account?saved=avatar-removed');
      case 'email': {
        const { email, currentPassword } = value;
        await api.post('/users/me/email', { email, currentPassword }, { handle: [400, 422, 429] });
        return redirect(`/account?${new URLSearchParams({ saved: 'email', to: email })}#email-title`);
      }
      case 'password': {
        const { currentPassword, password, confirmPassword } = value;
        await api.put('/users/me/password', { currentPassword, password, confirmPassword }, { handle: [400, 422, 429] });
        return redirect('/account?saved=password#password-title');
      }
      case 'delete':
        await api.delete('/users/me', {
          body: { currentPassword: value.currentPassword, confirm: value.confirm },
          handle: [400, 409, 422, 429],
        });
        return redirect('/account/deleted', { headers: { 'Set-Cookie': clearedSessionCookie() } });
    }
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error, undefined, { hideFields: HIDDEN });
  }
}

/**
 * The picture form is the page's one multipart form: its file is held in memory (at most 5 MB, and it is an avatar)
 * and sent on to the api, which checks what it is. Every other form is a plain one.
 */
async function readSettingsForm(request: Request): Promise<{ formData: FormData; file?: File; fileError?: string }> {
  if (!(request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) return { formData: await readFormData(request) };
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: AVATAR_MAX_BYTES, filter: ({ name }) => name === 'file' || name === 'intent' }),
    );
  } catch (error) {
    if (error instanceof Error && error.name === 'MaxPartSizeExceededError') {
      return { formData: guardForm(new FormData()), fileError: settingsMessages.avatarTooLarge };
    }
    throw unreadableForm();
  }
  const file = formData.get('file');
  formData.delete('file');
  const chosen = file instanceof File && file.size > 0 ? file : undefined;
  return { formData: guardForm(formData), file: chosen, fileError: chosen ? undefined : settingsMessages.avatarRequired };
}

async function sendAvatar(api: ApiClient, file: File) {
  const form = new FormData();
  form.append('file', file, file.name || 'avatar');
  const body = new Request('http://localhost/', { method: 'POST', body: form });
  await api.upload('/users/me/avatar', body.body!, body.headers.get('Content-Type')!, { handle: [400, 413, 415] });
}
