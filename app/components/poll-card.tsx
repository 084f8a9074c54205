import { Form, useNavigation } from '@remix-run/react';
import type { Poll } from '#contract/content';
import { ErrorList, SubmitButton } from './form-parts';

/**
 * A poll as a plain form (radio answers and "Vote"), or its results as bars once the fan has voted, and always for
 * the artist. Posts to the page's own action (intent=vote), so it works without JavaScript.
 */
export function PollCard({ poll, itemId, errors }: { poll: Poll; itemId: string; errors?: string[] }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('pollId') === poll._id;
  const titleId = `poll-${poll._id}-title`;
  const errorId = `poll-${poll._id}-error`;
  return (
    <section
      id={`poll-${poll._id}`}
      aria-labelledby={titleId}
      className="mt-5 scroll-mt-24 rounded-xl bg-navy-dark/60 p-4 ring-1 ring-white/10 sm:p-5"
    >
      <p className="text-xs font-bold uppercase tracking-wider text-white/70">Poll</p>
      {poll.showResults ? (
        <>
          <h3 id={titleId} className="mt-1 text-lg font-bold text-white">
            {poll.title}
          </h3>
          <PollResults poll={poll} />
        </>
      ) : (
        <Form method="post" preventScrollReset className="mt-1" aria-labelledby={titleId}>
          <input type="hidden" name="intent" value="vote" />
          <input type="hidden" name="pollId" value={poll._id} />
          <input type="hidden" name="itemId" value={itemId} />
          <fieldset aria-describedby={errors?.length ? errorId : undefined}>
            <legend id={titleId} className="text-lg font-bold text-white">
              {poll.title}
            </legend>
            <div className="mt-3 space-y-2">
              {poll.answers.map((answer) => (
                <label
                  key={answer._id}
                  className="flex cursor-pointer items-center gap-3 rounded-lg border border-white/20 px-3 py-2.5 text-base text-white hover:border-accent has-[:checked]:border-accent has-[:checked]:bg-accent/10"
                >
                  <input type="radio" name="answerId" value={answer._id} className="h-4 w-4 accent-[#f9ef1e]" />
                  {answer.text}
                </label>
              ))}
            </div>
          </fieldset>
          <ErrorList id={errorId} errors={errors} />
          <SubmitButton pending={pending} className="mt-4 sm:w-auto sm:px-8">
            Vote
          </SubmitButton>
        </Form>
      )}
    </section>
  );
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
