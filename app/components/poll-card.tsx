import { Form, useNavigation } from '@remix-run/react';
import type { Poll } from '#contract/content';
import { ErrorList, Spinner, SubmitButton } from './form-parts';
import { LocalTime } from './local-time';

/**
 * A poll as a plain form (radio answers and "Vote"), or its results as bars once the fan has voted, once it has
 * closed, and always for the artist. While the poll is open a fan who voted can change or remove their vote (a
 * <details> disclosure, so it opens without JavaScript). Posts to the page's own action (intent=vote or unvote), so it
 * works without JavaScript.
 */
export function PollCard({ poll, itemId, errors }: { poll: Poll; itemId: string; errors?: string[] }) {
  const titleId = `poll-${poll._id}-title`;
  const errorId = `poll-${poll._id}-error`;
  // Only a fan has a vote of their own: the artist sees the results with no vote to change.
  const canChange = !poll.closed && poll.votedAnswerId !== null;
  return (
    <section
      id={`poll-${poll._id}`}
      aria-labelledby={titleId}
      className="mt-5 scroll-mt-24 rounded-xl bg-navy-dark/60 p-4 ring-1 ring-white/10 sm:p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <p className="text-xs font-bold uppercase tracking-wider text-white/70">Poll</p>
        <PollClosing poll={poll} />
      </div>
      {poll.showResults ? (
        <>
          <h3 id={titleId} className="mt-1 text-lg font-bold text-white">
            {poll.title}
          </h3>
          <PollResults poll={poll} />
          <ErrorList id={errorId} errors={errors} />
          {canChange ? (
            // A new vote closes it again (its key changes); a refused one keeps it open with the message.
            <details key={poll.votedAnswerId} open={Boolean(errors?.length) || undefined} className="mt-3">
              <summary className="cursor-pointer text-sm font-semibold text-accent hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent">
                Changed your mind?
              </summary>
              <VoteForm poll={poll} itemId={itemId} titleId={titleId} errorId={errorId} errors={errors} changing />
            </details>
          ) : null}
        </>
      ) : (
        <VoteForm poll={poll} itemId={itemId} titleId={titleId} errorId={errorId} errors={errors} />
      )}
    </section>
  );
}

const secondaryButton =
  'inline-flex w-full items-center justify-center rounded-full border border-white/40 px-5 py-3 text-base font-semibold text-white ' +
  'hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed disabled:opacity-70 sm:w-auto';

/** The answers as radios and "Vote"; when changing a vote, the fan's answer is chosen and it can be removed. */
function VoteForm({
  poll,
  itemId,
  titleId,
  errorId,
  errors,
  changing = false,
}: {
  poll: Poll;
  itemId: string;
  titleId: string;
  errorId: string;
  errors?: string[];
  changing?: boolean;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('pollId') === poll._id;
  const pendingIntent = pending ? navigation.formData?.get('intent') : null;
  return (
    <Form method="post" preventScrollReset className="mt-1" aria-labelledby={changing ? undefined : titleId}>
      <input type="hidden" name="pollId" value={poll._id} />
      <input type="hidden" name="itemId" value={itemId} />
      <fieldset aria-describedby={errors?.length ? errorId : undefined}>
        {changing ? (
          <legend className="sr-only">New answer to {poll.title}</legend>
        ) : (
          <legend id={titleId} className="text-lg font-bold text-white">
            {poll.title}
          </legend>
        )}
        <div className="mt-3 space-y-2">
          {poll.answers.map((answer) => (
            <label
              key={answer._id}
              className="flex cursor-pointer items-center gap-3 rounded-lg border border-white/20 px-3 py-2.5 text-base text-white hover:border-accent has-[:checked]:border-accent has-[:checked]:bg-accent/10"
            >
              <input
                type="radio"
                name="answerId"
                value={answer._id}
                defaultChecked={answer._id === poll.votedAnswerId}
                className="h-4 w-4 accent-[#f9ef1e]"
              />
              {answer.text}
            </label>
          ))}
        </div>
      </fieldset>
      {changing ? null : <ErrorList id={errorId} errors={errors} />}
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SubmitButton name="intent" value="vote" pending={pendingIntent === 'vote'} disabled={pending} className="sm:w-auto sm:px-8">
          {changing ? 'Change vote' : 'Vote'}
        </SubmitButton>
        {changing ? (
          <button type="submit" name="intent" value="unvote" disabled={pending} className={secondaryButton}>
            {pendingIntent === 'unvote' ? <Spinner /> : null}
            Remove my vote
          </button>
        ) : null}
      </div>
    </Form>
  );
}

/** "Closes in 3 hours" and the time (the reader's own once hydrated), or "Closed" with when; nothing for a poll that never closes. */
function PollClosing({ poll }: { poll: Poll }) {
  if (!poll.closesAt) return null;
  if (poll.closed) {
    return (
      <p className="flex items-center gap-2 text-sm text-white/80">
        <span className="rounded-full bg-white/15 px-2.5 py-0.5 text-xs font-bold uppercase tracking-wider text-white">Closed</span>
        <span>
          Final results · <LocalTime iso={poll.closesAt} style="long" />
        </span>
      </p>
    );
  }
  return (
    <p className="text-sm text-white/80">
      {/* Counted from the server's clock, then from the browser's: a minute's difference is not an error. */}
      <span suppressHydrationWarning>{closesIn(poll.closesAt, new Date())}</span> · <LocalTime iso={poll.closesAt} style="long" />
    </p>
  );
}

/** "Closes in 5 minutes", "in 3 hours", "in 2 days" (hours and days to the nearest; under a minute, "in less than a minute"). */
export function closesIn(closesAt: string, now: Date) {
  const minutes = Math.floor((new Date(closesAt).getTime() - now.getTime()) / 60_000);
  const unit = (count: number, name: string) => `Closes in ${count} ${name}${count === 1 ? '' : 's'}`;
  if (minutes < 1) return 'Closes in less than a minute';
  if (minutes < 60) return unit(minutes, 'minute');
  if (minutes < 48 * 60) return unit(Math.round(minutes / 60), 'hour');
  return unit(Math.round(minutes / (24 * 60)), 'day');
}

/** Bars with each answer's share; the fan's own answer is marked. */
export function PollResults({ poll }: { poll: Poll }) {
  const total = poll.totalVotes ?? 0;
  return (
    <div className="mt-3">
      <ul className="space-y-3">
        {poll.answers.map((answer) => {
          const votes = answer.votes ?? 0;
          const share = total ? Math.round((votes / total) * 100) : 0;
          const mine = poll.votedAnswerId === answer._id;
          return (
            <li key={answer._id}>
              <div className="flex items-baseline justify-between gap-3 text-base text-white">
                <span className={mine ? 'font-bold' : undefined}>
                  {answer.text}
                  {mine ? <span className="ml-2 text-sm font-semibold text-accent">Your vote</span> : null}
                </span>
                <span className="shrink-0 text-sm text-white/80">
                  {share}%{' '}
                  <span className="sr-only">
                    ({votes} {votes === 1 ? 'vote' : 'votes'})
                  </span>
                </span>
              </div>
              <div className="mt-1 h-2.5 overflow-hidden rounded-full bg-white/10" aria-hidden="true">
                <div className={`h-full rounded-full ${mine ? 'bg-accent' : 'bg-white/60'}`} style={{ width: `${share}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
      <p className="mt-3 text-sm text-white/75">
        {total} {total === 1 ? 'vote' : 'votes'}
      </p>
    </div>
  );
}
