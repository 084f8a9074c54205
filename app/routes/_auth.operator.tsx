import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import * as z from 'zod/mini';
import type { AuditEntry, ReportEntry } from '#contract/moderation-messages';
import { FormAlert } from '~/components/form-parts';
import { LocalTime } from '~/components/local-time';
import { apiFor, isHttpError, type ApiClient } from '~/utils/api.server';
import { requireUser } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { possessive } from '#contract/names';

export const meta: MetaFunction = () => [{ title: 'Operator | Stagedoor' }];

/** Anyone but an operator gets the 404 page: the page's existence is nobody else's business. */
async function operatorGet<T>(api: ApiClient, path: string) {
  try {
    return (await api.get<{ data: { data: T } }>(path, { handle: [403] })).data.data;
  } catch (error) {
    if (isHttpError(error, 403)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

/**
 * /operator (accounts the CLI made operators): every club's reports, the whole moderation log, and the form that
 * suspends an account (or lifts a suspension). A suspended account's sessions end at once and it cannot sign in.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  const [reports, audit] = await Promise.all([
    operatorGet<ReportEntry[]>(api, '/operator/reports'),
    operatorGet<AuditEntry[]>(api, '/operator/audit'),
  ]);
  return json({ reports, audit, done: new URL(args.request.url).searchParams.get('done') }, { headers: { 'Cache-Control': 'no-store' } });
}

const SuspendFormSchema = z.object({
  user: z.string({ error: 'Please enter a username or an email address.' }).check(z.trim(), z.minLength(1), z.maxLength(200)),
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500, 'Please keep the reason to 500 characters.'))),
  lift: z.optional(z.literal('true')),
});

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  const submission = parseGuardedForm(await readFormData(args.request), SuspendFormSchema);
  if (submission.status !== 'success') return formReply(submission);
  const { user, reason, lift } = submission.value;
  try {
    const done = await api.post<{ data: { user: string; suspended: boolean } }>(
      '/operator/suspensions',
      { user, reason: reason ?? '', lift: lift === 'true' },
      { handle: [400, 403, 404] },
    );
    const search = new URLSearchParams({ done: `${done.data.suspended ? 'Suspended' : 'Lifted the suspension of'} @${done.data.user}.` });
    return redirect(`/operator?${search}`, 303);
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error, 'user');
  }
}

export default function OperatorPage() {
  const { reports, audit, done } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const errors = reply ? Object.values(reply.error ?? {}).flatMap((list) => list ?? []) : undefined;
  const input =
    'mt-1.5 block w-full rounded-lg border border-white/20 bg-navy-light px-3 py-2.5 text-base text-white focus:outline-none focus:ring-2 focus:ring-accent';
  return (
    <div className="mx-auto w-full max-w-4xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14">
      <p className="text-sm font-semibold uppercase tracking-widest text-accent">Stagedoor</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-white sm:text-4xl">Operator</h1>
      {done ? (
        <p role="status" className="mt-6 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          {done}
        </p>
      ) : null}

      <section aria-labelledby="suspend-title" className="mt-8 rounded-2xl bg-navy-light p-6 ring-1 ring-white/10">
        <h2 id="suspend-title" className="text-2xl font-bold text-white">
          Suspend an account
        </h2>
        <p className="mt-2 text-base text-white/80">Its sessions end at once, and it cannot sign in until the suspension is lifted.</p>
        <div className="mt-4">
          <FormAlert errors={errors} />
        </div>
        <Form method="post" className="mt-4 space-y-4" noValidate>
          <div>
            <label htmlFor="suspend-user" className="block text-base font-semibold text-white">
              Username or email
            </label>
            <input id="suspend-user" name="user" required maxLength={200} autoComplete="off" className={input} />
          </div>
          <div>
            <label htmlFor="suspend-reason" className="block text-base font-semibold text-white">
              Reason (for the log)
            </label>
            <input id="suspend-reason" name="reason" maxLength={500} autoComplete="off" className={input} />
          </div>
          <div className="flex items-center gap-2">
            <input id="suspend-lift" type="checkbox" name="lift" value="true" className="h-5 w-5 accent-accent" />
            <label htmlFor="suspend-lift" className="text-base text-white">
              Lift the suspension instead
            </label>
          </div>
          <button type="submit" className="rounded-full bg-accent px-6 py-3 text-base font-semibold text-navy hover:bg-accent-dark">
            Save
          </button>
        </Form>
      </section>

      <section aria-labelledby="all-reports-title" className="mt-10">
        <h2 id="all-reports-title" className="text-2xl font-bold text-white">
          Reports <span className="text-base font-medium text-white/70">({reports.length})</span>
        </h2>
        {reports.length ? (
          <ul className="mt-4 space-y-3">
            {reports.map((report) => (
              <li key={report._id} className="rounded-xl bg-navy-light p-4 ring-1 ring-white/10">
                <p className="text-sm text-white/70">
                  In @{possessive(report.artist.username)} club: a {report.kind} by{' '}
                  {report.reported ? `@${report.reported.username}` : 'a deleted account'}, reported by @{report.reporter.username} ·{' '}
                  <LocalTime iso={report.createdAt} style="long" />
                </p>
                <blockquote className="mt-2 whitespace-pre-line break-words border-l-2 border-white/30 pl-3 text-base text-white/90">
                  {report.excerpt}
                </blockquote>
                <p className="mt-2 break-words text-base text-white">Reason: {report.reason}</p>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-base text-white/80">No reports.</p>
        )}
      </section>

      <section aria-labelledby="all-log-title" className="mt-10">
        <h2 id="all-log-title" className="text-2xl font-bold text-white">
          Moderation log
        </h2>
        {audit.length ? (
          <ol className="mt-4 space-y-2">
            {audit.map((entry) => (
              <li key={entry._id} className="break-words text-base text-white/90">
                <LocalTime iso={entry.createdAt} style="long" /> · {entry.artist ? `@${possessive(entry.artist)} club · ` : ''}
                <span className="font-semibold text-white">{entry.actor}</span> {entry.action}
                {entry.subject ? ` ${entry.subject}` : ''}
                {entry.detail ? <span className="text-white/70"> — “{entry.detail}”</span> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-4 text-base text-white/80">Nothing yet.</p>
        )}
      </section>
    </div>
  );
}
