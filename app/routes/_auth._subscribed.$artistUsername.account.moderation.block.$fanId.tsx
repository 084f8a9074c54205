import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { moderationMessages, type MembershipEnding, type UserSummary } from '#contract/moderation-messages';
import { FormAlert, SubmitButton } from '~/components/form-parts';
import { StudioPage } from '~/components/studio-page';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';
import { readFormData } from '~/utils/form-guard.server';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { safeRedirect } from '~/utils/safe-redirect';
import { possessive } from '#contract/names';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Block ${data.fan.name || data.fan.username} | Stagedoor` : 'Block | Stagedoor' },
];

/** Where the artist came from (a conversation, an item's comments); their moderation page when it is not one of ours. */
function backTo(request: Request, artistUsername: string) {
  return safeRedirect(new URL(request.url).searchParams.get('back'), `/${artistUsername}/account/moderation`);
}

/**
 * /{artist}/account/moderation/block/{fanId}?back=: the second tap of blocking a fan from their message or comment.
 * The first was the Block link beside it; this page says what blocking does and asks once. A plain form.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  try {
    const body = await api.get<{ data: { fan: UserSummary; blocked: boolean; membership: MembershipEnding | null } }>(
      `/moderation/fans/${encodeURIComponent(args.params.fanId ?? '')}`,
      { handle: [400, 404] },
    );
    return json(
      { artist: { username: artist.username, name: artist.name }, ...body.data, back: backTo(args.request, artist.username) },
      { headers: { 'Cache-Control': 'no-store' } },
    );
  } catch (error) {
    if (isHttpError(error, 400, 404)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const form = await readFormData(args.request);
  const endMembership = form.get('endMembership') === 'yes';
  // The refund the page showed: a different one now is shown again, never made unseen.
  const shown = Number(form.get('refundCents'));
  const body = endMembership ? { endMembership, ...(Number.isSafeInteger(shown) && shown >= 0 ? { refundCents: shown } : {}) } : {};
  try {
    await api.put(`/moderation/blocks/${encodeURIComponent(args.params.fanId ?? '')}`, body, { handle: [400, 404, 409, 502, 503] });
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return json({ error: error.message }, { status: error.status });
  }
  if (endMembership) return redirect(`/${artist.username}/account/moderation?done=end-membership#blocked-title`, 303);
  return redirect(backTo(args.request, artist.username), 303);
}

/** Where each refund goes and why that much, in words: "£15.04 to them (183 of 365 days unused)". */
function refundWords(membership: MembershipEnding) {
  return membership.refunds
    .map(
      (refund) =>
        `${refund.amount} ${refund.kind === 'card' ? 'to their card' : 'to the fan who gave them a year'} (${refund.unusedDays} of ${refund.periodDays} days unused)`,
    )
    .join(' and ');
}

/** The option to end the fan's membership too, with the refund it makes; nothing when none runs. */
function EndMembershipChoice({ membership, name, blocked }: { membership: MembershipEnding | null; name: string; blocked: boolean }) {
  if (!membership) return null;
  if (membership.disputed) return <p className="mt-6 text-base text-white/90">{moderationMessages.membershipDisputed}</p>;
  const detail = membership.free
    ? `Their membership ends now and never renews. Nothing is refunded: there is no unused paid time.`
    : `Refund ${membership.total}: ${refundWords(membership)}. Their membership ends now and never renews; they are told by email.`;
  return (
    <div className="mt-6 rounded-xl bg-navy-light p-4 ring-1 ring-white/10">
      <input type="hidden" name="refundCents" value={membership.totalCents} />
      {blocked ? (
        <input type="hidden" name="endMembership" value="yes" />
      ) : (
        <label className="flex items-start gap-3 text-base font-semibold text-white">
          <input
            type="checkbox"
            name="endMembership"
            value="yes"
            className="mt-1 h-5 w-5 shrink-0 accent-accent"
            aria-describedby="end-detail"
          />
          {membership.free ? moderationMessages.endFreeMembershipLabel : moderationMessages.endMembershipLabel}
        </label>
      )}
      <p id="end-detail" className={`${blocked ? '' : 'mt-2 pl-8 '}text-base text-white/90`}>
        {blocked ? `${possessive(name)} membership still runs. ` : ''}
        {detail}
      </p>
    </div>
  );
}

export default function BlockFanPage() {
  const { artist, fan, blocked, membership, back } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const pending = useNavigation().state === 'submitting';
  const name = fan.name || fan.username;
  const cancel = (
    <Link
      to={back}
      className="rounded-full px-5 py-3 text-center text-base font-semibold text-white underline hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
    >
      Cancel
    </Link>
  );
  const alert = (
    <div className="mt-4">
      <FormAlert errors={reply?.error ? [reply.error] : undefined} />
    </div>
  );
  return (
    <StudioPage artistName={artist.name} title={blocked && membership ? `End ${possessive(name)} membership?` : `Block ${name}?`}>
      <div className="flex items-center gap-3">
        <img src={fan.avatar || DEFAULT_AVATAR} alt="" width={48} height={48} className="h-12 w-12 rounded-full bg-white/10 object-cover" />
        <p className="text-base text-white/80">@{fan.username}</p>
      </div>
      {blocked ? (
        <>
          <p role="status" className="mt-6 text-base text-white">
            You have already blocked {name}.{' '}
            {membership ? null : (
              <Link to={back} className="font-semibold text-accent underline">
                Go back
              </Link>
            )}
          </p>
          {membership && !membership.disputed ? (
            <Form method="post">
              <EndMembershipChoice membership={membership} name={name} blocked />
              {alert}
              <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
                <SubmitButton pending={pending} className="sm:w-auto sm:px-8">
                  {membership.free ? 'End their membership' : `End it and refund ${membership.total}`}
                </SubmitButton>
                {cancel}
              </div>
            </Form>
          ) : (
            <EndMembershipChoice membership={membership} name={name} blocked />
          )}
        </>
      ) : (
        <>
          <ul className="mt-6 list-disc space-y-2 pl-5 text-base text-white/90">
            <li>{name} can no longer message you, comment on your posts or send you reports.</li>
            <li>They are told so, in one line, where the message box and the comment form were.</li>
            <li>
              They keep what they paid for: their membership runs on
              {membership ? ', unless you also end it below' : ''}, and what they already wrote stays.
            </li>
            <li>You can unblock them any time in Moderation.</li>
          </ul>
          <Form method="post">
            <EndMembershipChoice membership={membership} name={name} blocked={false} />
            {alert}
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
              <SubmitButton pending={pending} className="sm:w-auto sm:px-8">
                Block {name}
              </SubmitButton>
              {cancel}
            </div>
          </Form>
        </>
      )}
    </StudioPage>
  );
}
