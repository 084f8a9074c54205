import type { Submission, SubmissionResult } from '@conform-to/react';
import { json } from '@remix-run/node';
import type { HttpError } from './api.server';

type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[]; resetForm?: boolean };

/**
 * The one answer of an action that does not redirect: the form's submission reply, which conform shows on the form
 * (the values kept, each message on its field), with status 400.
 */
export function formReply<Output>(submission: Submission<unknown, string[], Output>, options: ReplyOptions = {}, status = 400) {
  return json<SubmissionResult<string[]>>(submission.reply(options), { status });
}

/**
 * A refusal of the api as the form's reply: its field errors on the form's fields, or its message on `field` (else on
 * the whole form). A 400 too, but for a rate limit (429) and an api that cannot answer for a moment (503), whose
 * statuses mean something to the client.
 */
export function apiErrorReply<Output>(
  submission: Submission<unknown, string[], Output>,
  error: HttpError,
  field?: string,
  options: Pick<ReplyOptions, 'hideFields'> = {},
) {
  const apiFieldErrors = Object.keys(error.fieldErrors).length ? error.fieldErrors : undefined;
  const fieldErrors = apiFieldErrors ?? (field ? { [field]: [error.message] } : undefined);
  const status = error.status === 429 || error.status === 503 ? error.status : 400;
  return formReply(submission, { ...options, fieldErrors, formErrors: fieldErrors ? undefined : [error.message] }, status);
}
