import { getFormProps, useForm } from '@conform-to/react';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as z from 'zod/mini';
import { moderationMessages } from '#contract/moderation-messages';
import { SubmitButton } from '~/components/form-parts';
import { TextareaField } from '~/components/forms';
import { StudioPage } from '~/components/studio-page';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireSubscriber } from '~/utils/auth.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { formConstraint, parseForm } from '~/utils/form-schema';
import { safeRedirect } from '~/utils/safe-redirect';

export const meta: MetaFunction = () => [{ title: 'Report | Stagedoor' }];

/** The api's report rules (contract/moderation.ts) in zod/mini, so the page ships no classic zod. */
const ReportFormSchema = z.object({
  kind: z.enum(['comment', 'message']),
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  reason: z
    .string({ error: moderationMessages.reasonRequired })
    .check(z.trim(), z.minLength(1, moderationMessages.reasonRequired), z.maxLength(500, moderationMessages.reasonTooLong)),
  back: z.optional(z.string().check(z.maxLength(2000))),
});

function readQuery(request: Request, artistUsername: string) {
  const search = new URL(request.url).searchParams;
  const kind = search.get('kind') === 'message' ? ('message' as const) : ('comment' as const);
  return {
    kind,
    id: search.get('id') ?? '',
    back: safeRedirect(search.get('back'), `/${artistUsername}`),
    done: search.get('done') === '1',
  };
}

/**
 * /{artist}/account/report?kind=comment|message&id=&back=: a fan reports a comment or a message they can see, with a
 * reason. The artist sees it on their Moderation page, and Stagedoor's operators see every report.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireSubscriber(api, args.params.artistUsername, { allowKept: true });
  const query = readQuery(args.request, artist.username);
  if (!query.id && !query.done) throw new Response('Not found', { status: 404 });
  return json({ artist: { username: artist.username, name: artist.name }, ...query });
}

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireSubscriber(api, args.params.artistUsername, { allowKept: true });
  const submission = parseGuardedForm(await readFormData(args.request), ReportFormSchema);
  if (submission.status !== 'success') return formReply(submission);
  const { back, ...report } = submission.value;
  try {
    await api.post('/reports', report, { handle: [400, 403, 404, 409, 429] });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error, 'reason');
  }
  const search = new URLSearchParams({ done: '1', back: safeRedirect(back, `/${artist.username}`) });
  return redirect(`/${artist.username}/account/report?${search}`, 303);
}

export default function ReportPage() {
  const { artist, kind, id, back, done } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const pending = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: 'report',
    lastResult,
    constraint: formConstraint(ReportFormSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, ReportFormSchema),
  });
  return (
    <StudioPage artistName={artist.name} title={done ? 'Thank you for telling us' : `Report this ${kind}`}>
      {done ? (
        <>
          <p role="status" className="text-base text-white/90">
            Your report has been sent. {artist.name} and the Stagedoor team can see it.
          </p>
          <Link to={back} className="mt-6 inline-block text-base font-semibold text-accent underline">
            Go back
          </Link>
        </>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <input type="hidden" name="kind" value={kind} />
          <input type="hidden" name="id" value={id} />
          <input type="hidden" name="back" value={back} />
          <TextareaField
            field={fields.reason}
            label="What is wrong with it?"
            hint={`${artist.name} and the Stagedoor team will read this. Up to 500 characters.`}
            textareaProps={{ rows: 4 }}
          />
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <SubmitButton pending={pending} className="sm:w-auto sm:px-8">
              Send report
            </SubmitButton>
            <Link to={back} className="rounded-full px-5 py-3 text-center text-base font-semibold text-white underline hover:text-accent">
              Cancel
            </Link>
          </div>
        </Form>
      )}
    </StudioPage>
  );
}
