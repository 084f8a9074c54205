import { getFormProps, parse, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { characterCount, COMMENT_MAX, commentTextError } from '#contract/content-rules';
import type { Comment } from '#contract/content';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { formatMoment } from './content-card';
import { formatAt, listeningMessages, parseAt } from '#contract/listening';
import { InputField, TextareaField } from './forms';
import { currentPlayhead, seekTo } from './listening/playhead';
import { FormAlert, SubmitButton } from './form-parts';
import { useHydrated } from './use-hydrated';

/**
 * An item's comments (newest first, paged by links), the form to write one and a delete button on the ones the
 * viewer may delete (their own; the artist, any). Comments are plain text, rendered as text. The comment a link
 * names (`commentId`) has an id anchor the browser scrolls to, and is highlighted.
 */
export function Comments({
  itemId,
  comments,
  total,
  offset,
  limit,
  highlightId,
  pageHref,
  momentHref,
  actionResult,
  listErrors,
  blockedMessage,
  moderationHref,
}: {
  itemId: string;
  comments: Comment[];
  total: number;
  offset: number;
  limit: number;
  highlightId?: string;
  pageHref: (offset: number) => string;
  /** The item's page at a moment (`?t=`), when it has a track or a video: comments may then name a moment. */
  momentHref?: (seconds: number) => string;
  /** The page action's reply to whichever of its forms was sent (content-action.server.ts). */
  actionResult?: SubmissionResult<string[]>;
  listErrors?: string[];
  /** Said instead of the form to a fan the artist blocks. */
  blockedMessage?: string;
  /** Where the Block (the artist's) and Report (a fan's) links of a comment lead. */
  moderationHref?: { block: (fanId: string) => string; report: (commentId: string) => string };
}) {
  const linkClass =
    'rounded-full border border-white/30 px-4 py-2 text-sm font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';
  const sent = actionResult?.initialValue;
  return (
    <section id="comments" aria-labelledby="comments-title" className="scroll-mt-24">
      <h2 id="comments-title" className="text-2xl font-bold text-white">
        Comments <span className="text-white/70">({total})</span>
      </h2>

      {/* A new key after each post empties the form (the page stays mounted when JavaScript runs). */}
      {blockedMessage ? (
        <p className="mt-4 rounded-xl bg-navy-light px-4 py-3 text-base font-semibold text-white ring-1 ring-white/10">{blockedMessage}</p>
      ) : (
        <CommentForm
          key={total}
          itemId={itemId}
          withMoment={Boolean(momentHref)}
          lastResult={sent?.intent === 'comment' && sent.itemId === itemId ? actionResult : undefined}
        />
      )}

      <div className="mt-6">
        <FormAlert errors={listErrors} />
      </div>
      {comments.length ? (
        <ol className="mt-4 space-y-3">
          {comments.map((comment) => (
            <CommentEntry
              key={comment._id}
              comment={comment}
              itemId={itemId}
              highlighted={comment._id === highlightId}
              momentHref={momentHref}
              moderationHref={moderationHref}
            />
          ))}
        </ol>
      ) : (
        <p className="mt-4 text-base text-white/80">No comments yet. Be the first to say something.</p>
      )}

      {offset > 0 || offset + limit < total ? (
        <nav aria-label="Comment pages" className="mt-4 flex flex-wrap items-center gap-3">
          {offset > 0 ? (
            <Link to={`${pageHref(Math.max(0, offset - limit))}#comments`} preventScrollReset className={linkClass}>
              Newer comments
            </Link>
          ) : null}
          {offset + limit < total ? (
            <Link to={`${pageHref(offset + limit)}#comments`} preventScrollReset className={linkClass}>
              Older comments
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

/**
 * The fan's comment: checked as they type once they have sent it (the action checks it too, without JavaScript),
 * with the count of its characters against the limit as they type.
 */
function CommentForm({ itemId, withMoment, lastResult }: { itemId: string; withMoment: boolean; lastResult?: SubmissionResult<string[]> }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const posting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'comment';
  const [form, fields] = useForm<{ text: string; at?: string }>({
    id: 'comment',
    lastResult,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    // CommentSchema's rules without zod (commentTextError), which would otherwise travel with every item page.
    onValidate: ({ formData }) =>
      parse(formData, {
        resolve({ text, at }) {
          const error = commentTextError(typeof text === 'string' ? text : undefined);
          const atError = typeof at === 'string' && parseAt(at) === undefined ? listeningMessages.atFormat : undefined;
          if (error || atError) return { error: { ...(error ? { text: [error] } : {}), ...(atError ? { at: [atError] } : {}) } };
          return { value: { text: String(text).trim(), at: typeof at === 'string' ? at : undefined } };
        },
      }),
  });

  // As the schema counts: the text without its surrounding spaces.
  const length = characterCount((fields.text.value ?? '').trim());
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-4 space-y-3">
      <input type="hidden" name="intent" value="comment" />
      <input type="hidden" name="itemId" value={itemId} />
      <div>
        <TextareaField
          field={fields.text}
          label="Your comment"
          hint={`Up to ${COMMENT_MAX} characters. Everyone in the fan club can read it.`}
          textareaProps={{ rows: 3 }}
        />
        {hydrated ? (
          <p className={`mt-1 text-right text-sm ${length > COMMENT_MAX ? 'text-red-300' : 'text-white/70'}`}>
            {length} / {COMMENT_MAX} characters
          </p>
        ) : null}
      </div>
      {withMoment ? (
        <InputField
          field={fields.at}
          label="At a moment (optional)"
          hint="Where in the track, like 1:23. Leave it empty for the whole track."
          className="max-w-xs"
          inputProps={{ inputMode: 'numeric', placeholder: '1:23', autoComplete: 'off' }}
          addon={
            hydrated ? (
              <button
                type="button"
                onClick={() => {
                  const at = currentPlayhead(itemId);
                  if (at !== null) form.update({ name: fields.at.name, value: formatAt(at) });
                }}
                className="shrink-0 rounded-lg border border-white/30 px-3 text-sm font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
              >
                Now
                <span className="sr-only"> (use where the player is)</span>
              </button>
            ) : undefined
          }
        />
      ) : null}
      <SubmitButton pending={posting} className="sm:w-auto sm:px-8">
        Post comment
      </SubmitButton>
    </Form>
  );
}

/**
 * The linked comment is brought into view: without JavaScript by `autofocus` (the browser focuses, and so scrolls
 * to, the element as the page loads; the URL carries no #fragment to do it), with JavaScript by scrolling to it
 * whenever the link changes, as after a client-side navigation.
 */
function CommentEntry({
  comment,
  itemId,
  highlighted,
  momentHref,
  moderationHref,
}: {
  comment: Comment;
  itemId: string;
  highlighted: boolean;
  momentHref?: (seconds: number) => string;
  moderationHref?: { block: (fanId: string) => string; report: (commentId: string) => string };
}) {
  const navigation = useNavigation();
  const deleting = navigation.state !== 'idle' && navigation.formData?.get('commentId') === comment._id;
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  return (
    <li
      ref={ref}
      id={`comment-${comment._id}`}
      aria-current={highlighted ? 'true' : undefined}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- the linked comment is where the link leads (see above)
      autoFocus={highlighted}
      tabIndex={highlighted ? -1 : undefined}
      className={`scroll-mt-24 rounded-xl p-4 focus:outline-none ${highlighted ? 'bg-accent/10 ring-2 ring-accent' : 'bg-navy-light ring-1 ring-white/10'}`}
    >
      <div className="flex items-start gap-3">
        <img
          src={comment.author.avatar || DEFAULT_AVATAR}
          alt=""
          width={36}
          height={36}
          className="h-9 w-9 shrink-0 rounded-full bg-white/10 object-cover"
        />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
            <span className="font-semibold text-white">{comment.author.name || comment.author.username}</span>
            {comment.isArtist ? <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-bold text-navy">Artist</span> : null}
            <time dateTime={comment.createdAt} className="text-white/70">
              {formatMoment(comment.createdAt)}
            </time>
            {comment.at !== null && momentHref ? <MomentLink itemId={itemId} at={comment.at} href={momentHref(comment.at)} /> : null}
            {highlighted ? <span className="sr-only">(the linked comment)</span> : null}
          </p>
          {comment.hidden || comment.held ? (
            <p className="mt-1 text-sm font-semibold text-accent">
              {comment.held
                ? comment.canModerate
                  ? 'Waiting for your review: fans cannot see it.'
                  : 'Waiting for the artist’s review: only you can see it.'
                : comment.canModerate
                  ? 'Hidden: only you and its author can see it.'
                  : 'Hidden by the artist: only you can see it.'}
            </p>
          ) : null}
          <p className="mt-1 whitespace-pre-line break-words text-base text-white/90">{comment.text}</p>
          <CommentTools comment={comment} itemId={itemId} moderationHref={moderationHref} />
        </div>
        {comment.canDelete ? (
          <Form method="post" preventScrollReset className="shrink-0">
            <input type="hidden" name="intent" value="delete-comment" />
            <input type="hidden" name="itemId" value={itemId} />
            <input type="hidden" name="commentId" value={comment._id} />
            <button
              type="submit"
              disabled={deleting}
              className="rounded-full px-3 py-1.5 text-sm font-semibold text-red-300 hover:bg-red-500/15 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-300 disabled:opacity-60"
            >
              Delete<span className="sr-only"> comment by {comment.author.name || comment.author.username}</span>
            </button>
          </Form>
        ) : null}
      </div>
    </li>
  );
}

const toolClass =
  'rounded-full px-2 py-1 text-sm font-semibold text-white/80 underline hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

/**
 * Under a comment: for the artist, Hide (or Show) and Block its author, which leads to a confirmation; for another
 * fan, Report. Plain forms and links, so they work without JavaScript.
 */
function CommentTools({
  comment,
  itemId,
  moderationHref,
}: {
  comment: Comment;
  itemId: string;
  moderationHref?: { block: (fanId: string) => string; report: (commentId: string) => string };
}) {
  const who = comment.author.name || comment.author.username;
  if (comment.canModerate) {
    return (
      <div className="mt-2 flex flex-wrap items-center gap-2">
        {comment.held ? null : (
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="hide-comment" />
            <input type="hidden" name="itemId" value={itemId} />
            <input type="hidden" name="commentId" value={comment._id} />
            <input type="hidden" name="hidden" value={comment.hidden ? 'false' : 'true'} />
            <button type="submit" className={toolClass}>
              {comment.hidden ? 'Show' : 'Hide'}
              <span className="sr-only"> comment by {who}</span>
            </button>
          </Form>
        )}
        {moderationHref ? (
          <Link to={moderationHref.block(comment.author._id)} className={toolClass}>
            Block<span className="sr-only"> {who}</span>
          </Link>
        ) : null}
      </div>
    );
  }
  if (comment.canDelete || comment.isArtist || !moderationHref) return null;
  return (
    <div className="mt-2">
      <Link to={moderationHref.report(comment._id)} className={toolClass}>
        Report<span className="sr-only"> comment by {who}</span>
      </Link>
    </div>
  );
}

/**
 * "1:23" beside a comment on a moment: a plain link to the item's page at that moment (`?t=`, which starts the
 * player there without JavaScript), and with JavaScript a seek of the player already on the page.
 */
function MomentLink({ itemId, at, href }: { itemId: string; at: number; href: string }) {
  const label = formatAt(at);
  return (
    <a
      href={href}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        if (seekTo(itemId, at)) event.preventDefault();
      }}
      aria-label={`Play from ${label}`}
      className="rounded-full bg-accent/15 px-2 py-0.5 font-mono text-xs font-bold text-accent hover:bg-accent/25 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
    >
      {label}
    </a>
  );
}
