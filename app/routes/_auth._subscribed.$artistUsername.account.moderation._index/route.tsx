import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import type { ReactNode } from 'react';
import { ArtistStudioLinks } from '~/components/artist-studio-links';
import { ErrorList, FormAlert } from '~/components/form-parts';
import { LocalTime } from '~/components/local-time';
import { StudioPage } from '~/components/studio-page';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { loadModeration, moderationAction } from './moderation.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Moderation · ${data.artist.name} | Stagedoor` : 'Moderation | Stagedoor' },
];

/**
 * /{artist}/account/moderation (the artist only): what waits for review, fans' reports, blocked fans (with Unblock),
 * muted words and the log of every moderation action in the club. Plain forms: they work without JavaScript.
 */
export const loader = loadModeration;
export const action = moderationAction;

const DONE: Record<string, string> = {
  unblock: 'Unblocked: they can message you and comment again.',
  'add-word': 'Muted: comments and messages with it now wait for your review.',
  'remove-word': 'No longer muted.',
  approve: 'Approved: it is shown now.',
  'delete-held': 'Deleted.',
  'end-membership':
    'Blocked, and their membership has ended: it will not renew. Any refund is on its way to their card and shows in your earnings; they have been told by email.',
};

const buttonClass =
  'rounded-full border border-white/30 px-4 py-1.5 text-sm font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

function Section({ id, title, count, children }: { id: string; title: string; count?: number; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10 first:mt-0">
      <h2 id={id} className="scroll-mt-24 text-2xl font-bold text-white">
        {title} {count !== undefined ? <span className="text-base font-medium text-white/70">({count})</span> : null}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="text-base text-white/80">{children}</p>;
}

function Person({ user }: { user: { username: string; name: string; avatar: string } }) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      <img
        src={user.avatar || DEFAULT_AVATAR}
        alt=""
        width={28}
        height={28}
        className="h-7 w-7 shrink-0 rounded-full bg-white/10 object-cover"
      />
      <span className="min-w-0 break-words text-base font-semibold text-white">
        {user.name || user.username} <span className="font-normal text-white/70">@{user.username}</span>
      </span>
    </span>
  );
}

export default function ModerationPage() {
  const { artist, held, reports, blocks, words, audit, done } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const sent = reply?.initialValue?.intent;
  const wordErrors = (sent === 'add-word' && reply?.error?.word) || undefined;
  const otherErrors = sent && sent !== 'add-word' ? Object.values(reply?.error ?? {}).flatMap((errors) => errors ?? []) : undefined;
  return (
    <StudioPage
      artistName={artist.name}
      title="Moderation"
      intro="Keep your club a good place: review what was held, read reports, block fans and mute words."
    >
      {done && DONE[done] ? (
        <p role="status" className="mb-6 rounded-lg bg-accent/15 px-3 py-2 text-base text-accent">
          {DONE[done]}
        </p>
      ) : null}
      <FormAlert errors={otherErrors} />

      <Section id="held-title" title="Waiting for your review" count={held.length}>
        {held.length ? (
          <ul className="space-y-3">
            {held.map((entry) => (
              <li key={entry._id} className="rounded-xl bg-navy-light p-4 ring-1 ring-white/10">
                <Person user={entry.author} />
                <p className="mt-1 text-sm text-white/70">
                  {entry.kind === 'comment' ? `A comment on “${entry.placeTitle}”` : 'A message to you'} ·{' '}
                  <LocalTime iso={entry.createdAt} style="long" />
                </p>
                <p className="mt-2 whitespace-pre-line break-words text-base text-white/90">{entry.text}</p>
                <div className="mt-3 flex flex-wrap gap-2">
                  <Form method="post">
                    <input type="hidden" name="intent" value="approve" />
                    <input type="hidden" name="kind" value={entry.kind} />
                    <input type="hidden" name="id" value={entry._id} />
                    <button type="submit" className={buttonClass}>
                      Approve
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete-held" />
                    <input type="hidden" name="kind" value={entry.kind} />
                    <input type="hidden" name="id" value={entry._id} />
                    <button type="submit" className={`${buttonClass} text-red-300`}>
                      Delete
                    </button>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <Empty>Nothing is waiting. Comments and messages with a muted word wait here.</Empty>
        )}
      </Section>

      <Section id="reports-title" title="Reports" count={reports.length}>
        {reports.length ? (
          <ul className="space-y-3">
            {reports.map((report) => (
              <li key={report._id} className="rounded-xl bg-navy-light p-4 ring-1 ring-white/10">
                <p className="text-sm text-white/70">
                  A {report.kind} by {report.reported ? `@${report.reported.username}` : 'a deleted account'}, reported by @
                  {report.reporter.username} · <LocalTime iso={report.createdAt} style="long" />
                </p>
                <blockquote className="mt-2 whitespace-pre-line break-words border-l-2 border-white/30 pl-3 text-base text-white/90">
                  {report.excerpt}
                </blockquote>
                <p className="mt-2 break-words text-base text-white">Reason: {report.reason}</p>
                {report.reported && report.reported._id !== undefined ? (
                  <Link
                    to={`/${artist.username}/account/moderation/block/${report.reported._id}`}
                    className="mt-2 inline-block text-sm font-semibold text-accent underline"
                  >
                    Block @{report.reported.username}
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <Empty>No reports. Fans can report a comment or a message they think is wrong.</Empty>
        )}
      </Section>

      <Section id="blocked-title" title="Blocked fans" count={blocks.length}>
        {blocks.length ? (
          <ul className="divide-y divide-white/10 rounded-xl bg-navy-light ring-1 ring-white/10">
            {blocks.map((block) => (
              <li key={block.fan._id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="min-w-0">
                  <Person user={block.fan} />
                  <p className="mt-1 text-sm text-white/70">
                    Blocked <LocalTime iso={block.createdAt} style="long" />
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  {block.member ? (
                    <Link
                      to={`/${artist.username}/account/moderation/block/${block.fan._id}?back=${encodeURIComponent(`/${artist.username}/account/moderation`)}`}
                      className={buttonClass}
                    >
                      End membership and refund<span className="sr-only"> {block.fan.name || block.fan.username}</span>
                    </Link>
                  ) : null}
                  <Form method="post">
                    <input type="hidden" name="intent" value="unblock" />
                    <input type="hidden" name="fanId" value={block.fan._id} />
                    <button type="submit" className={buttonClass}>
                      Unblock<span className="sr-only"> {block.fan.name || block.fan.username}</span>
                    </button>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <Empty>You have not blocked anyone.</Empty>
        )}
      </Section>

      <Section id="words-title" title="Muted words" count={words.length}>
        <Form method="post" className="flex flex-wrap items-end gap-3" noValidate>
          <input type="hidden" name="intent" value="add-word" />
          <div className="min-w-0 flex-1">
            <label htmlFor="mute-word" className="block text-base font-semibold text-white">
              Word or phrase to mute
            </label>
            <input
              id="mute-word"
              name="word"
              required
              maxLength={50}
              aria-invalid={wordErrors ? true : undefined}
              aria-describedby={wordErrors ? 'mute-word-error' : 'mute-word-hint'}
              className="mt-1.5 block w-full rounded-lg border border-white/20 bg-navy-light px-3 py-2.5 text-base text-white focus:outline-none focus:ring-2 focus:ring-accent"
            />
            <p id="mute-word-hint" className="mt-1 text-sm text-white/70">
              A comment or message with it waits for your review instead of being shown.
            </p>
            <ErrorList id="mute-word-error" errors={wordErrors} />
          </div>
          <button type="submit" className="rounded-full bg-accent px-5 py-2.5 text-base font-semibold text-navy hover:bg-accent-dark">
            Mute
          </button>
        </Form>
        {words.length ? (
          <ul className="mt-4 flex flex-wrap gap-2">
            {words.map((word) => (
              <li key={word}>
                <Form method="post" className="flex items-center gap-1 rounded-full bg-navy-light py-1 pl-3 pr-1 ring-1 ring-white/15">
                  <span className="text-base text-white">{word}</span>
                  <input type="hidden" name="intent" value="remove-word" />
                  <input type="hidden" name="word" value={word} />
                  <button type="submit" className="rounded-full px-2 py-0.5 text-sm font-semibold text-white/80 hover:text-white">
                    <span aria-hidden="true">×</span>
                    <span className="sr-only">Unmute {word}</span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
      </Section>

      <Section id="log-title" title="Moderation log">
        {audit.length ? (
          <ol className="space-y-2">
            {audit.map((entry) => (
              <li key={entry._id} className="break-words text-base text-white/90">
                <LocalTime iso={entry.createdAt} style="long" /> · <span className="font-semibold text-white">{entry.actor}</span>{' '}
                {entry.action}
                {entry.subject ? ` ${entry.subject}` : ''}
                {entry.detail ? <span className="text-white/70"> — “{entry.detail}”</span> : null}
              </li>
            ))}
          </ol>
        ) : (
          <Empty>Nothing yet. Every block, hidden comment, report and muted word is written here.</Empty>
        )}
      </Section>

      <div className="mt-12">
        <ArtistStudioLinks artistUsername={artist.username} current="moderation" />
      </div>
    </StudioPage>
  );
}
