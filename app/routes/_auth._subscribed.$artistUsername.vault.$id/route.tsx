import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { BookmarkButton } from '~/components/bookmark-button';
import { Comments } from '~/components/comments';
import { formatDay, StateBadge, TypeLabel, wideImageSources } from '~/components/content-card';
import { MediaPlayer } from '~/components/media-player';
import { PollCard } from '~/components/poll-card';
import { PresaleCard, PresaleCodes } from '~/components/presale-card';
import { safeRedirect } from '~/utils/auth.server';
import { readOffset, readOrigin, COMMENTS_PAGE_SIZE } from '~/utils/content-params';
import { apiFor } from '~/utils/api.server';
import { invariantResponse, requireUser } from '~/utils/auth.server';
import { intentErrors, pollErrors } from '~/utils/content-action';
import { contentAction } from '~/utils/content-action.server';
import { getCollection, getItem, getPresaleCode, getTranscript, listComments, listPresaleCodes } from '~/utils/content.server';
import { Transcript } from '~/components/listening/transcript';
import { TranscriptForm } from './transcript-form';
import { isHttpError } from '~/utils/api.server';
import { readStartAt } from '#contract/listening';
import { backLink } from './back-link';
import { SaveForOffline } from '~/components/offline/save-for-offline';
import { trackOf } from '~/components/player/bridge';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.item.title} · ${data.item.performer.name} | Stagedoor` : 'Stagedoor' },
];

/**
 * /{artist}/vault/{id}?type&from&collectionId&commentId: one item with its player or picture, text,
 * poll, presale, comments and bookmark toggle. Everything it needs is asked for at once. An unknown item, one of
 * another artist, or one not yet published (for a fan) is the 404 page.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, params } = args;
  const api = apiFor(args);
  const artistUsername = params.artistUsername ?? '';
  const search = new URL(request.url).searchParams;
  const id = params.id ?? '';
  const from = readOrigin(search);
  // A collection opened through the item route has its own page.
  if (search.get('type') === 'collection') {
    throw redirect(safeRedirect(`/${artistUsername}/collection/${encodeURIComponent(id)}${from ? `?from=${from}` : ''}`));
  }
  const commentId = search.get('commentId') || undefined;
  const collectionId = search.get('collectionId') || undefined;
  const [user, item, comments, cues, collection] = await Promise.all([
    requireUser(api),
    getItem(api, id, [403]),
    listComments(api, id, { offset: readOffset(search, 'commentsOffset'), commentId }, [403]),
    getTranscript(api, id, [403]),
    // A collection that is gone only loses the "back to" link.
    collectionId ? getCollection(api, collectionId, { limit: 1 }).catch(() => null) : null,
  ]).catch((error: unknown) => {
    // A lapsed fan who keeps older items reaches this page; a newer item is for members (decision 014).
    if (isHttpError(error, 403)) throw redirect(`/${encodeURIComponent(artistUsername)}/subscribe`);
    throw error;
  });
  invariantResponse(item.performer.username.toLowerCase() === artistUsername.toLowerCase(), 'Not found', { status: 404 });
  const isOwner = item.performerId === user.id;
  const codeQuery = search.get('code')?.trim() || undefined;
  // Only a presale has codes: the fan's own, or (for the artist, who traces a leaked code to its fan here and revokes
  // it) the list.
  const [presaleCode, presaleCodes] = item.presale
    ? await Promise.all([isOwner ? null : getPresaleCode(api, id), isOwner ? listPresaleCodes(api, id, codeQuery) : null])
    : [null, null];
  return {
    item,
    comments,
    cues,
    commentId,
    collection: collection ? { _id: collection._id, title: collection.title } : null,
    presaleCode,
    presaleCodes,
    codeQuery: codeQuery ?? '',
    from,
    isOwner,
    startAt: readStartAt(search.get('t')),
  };
}

export const action = contentAction;

export default function VaultItem() {
  const { item, comments, cues, commentId, collection, presaleCode, presaleCodes, codeQuery, from, isOwner, startAt } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errorsFor = (intent: string, field: string) => intentErrors(result, intent)(field);
  const artistUsername = item.performer.username;
  const back = backLink(artistUsername, item, from, collection);

  const pageHref = (offset: number, at?: number) => {
    const search = new URLSearchParams();
    search.set('type', item.mediaType);
    if (from) search.set('from', from);
    if (collection) search.set('collectionId', collection._id);
    if (offset) search.set('commentsOffset', String(offset));
    if (at !== undefined) search.set('t', String(Math.floor(at)));
    return `/${artistUsername}/vault/${item._id}?${search}`;
  };
  const playable = item.media?.kind === 'audio' || item.media?.kind === 'video';
  const track = trackOf(item, pageHref(0));
  const here = pageHref(comments.offset);
  const momentHref = (at: number) => `${pageHref(comments.offset, at)}#player`;
  const markers = comments.data.flatMap((comment) =>
    comment.at === null ? [] : [{ id: comment._id, at: comment.at, label: comment.text.slice(0, 80), href: momentHref(comment.at) }],
  );

  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-6 sm:px-6 sm:pt-10">
      <Link
        to={back.to}
        className="-ml-2 inline-flex items-center gap-1.5 rounded-full px-2 py-1.5 text-base font-semibold text-accent hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-5 w-5">
          <path
            fillRule="evenodd"
            d="M12.8 4.2a1 1 0 0 1 0 1.4L8.4 10l4.4 4.4a1 1 0 0 1-1.4 1.4l-5.1-5.1a1 1 0 0 1 0-1.4l5.1-5.1a1 1 0 0 1 1.4 0Z"
            clipRule="evenodd"
          />
        </svg>
        {back.label}
      </Link>

      <article id={`item-${item._id}`} className="mt-4">
        <header>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <TypeLabel>{item.typeLabel}</TypeLabel>
            <time dateTime={item.publishAt} className="text-sm text-white/75">
              {formatDay(item.publishAt)}
            </time>
            {isOwner ? <StateBadge item={item} /> : null}
          </div>
          <h1 className="mt-2 break-words text-3xl font-extrabold tracking-tight text-white sm:text-4xl">{item.title}</h1>
          <p className="mt-2 text-base text-white/80">by {item.performer.name}</p>
          <div className="mt-4 flex flex-wrap items-start gap-3">
            <BookmarkButton itemId={item._id} bookmarked={item.isBookmarked} errors={errorsFor('bookmark', 'bookmark')} />
            {isOwner ? (
              <Link
                to={`/${artistUsername}/account/content/${item._id}/edit`}
                className="inline-flex items-center rounded-full border border-white/40 px-4 py-2 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy"
              >
                Edit or delete<span className="sr-only"> “{item.title}”</span>
              </Link>
            ) : null}
          </div>
        </header>

        {item.media ? (
          <div className="mt-6">
            <MediaPlayer
              item={item}
              startAt={startAt}
              href={pageHref(0)}
              markers={markers}
              captionsSrc={cues.length ? `/${artistUsername}/vault/${item._id}/captions.vtt` : undefined}
            />
            {track ? <SaveForOffline tracks={[track]} className="mt-4" /> : null}
            {cues.length ? <Transcript itemId={item._id} cues={cues} momentHref={momentHref} /> : null}
            {isOwner && playable ? (
              <TranscriptForm
                itemId={item._id}
                cues={cues}
                nudge={item.type === 'voicenote' || item.type === 'videoMessage'}
                lastResult={result?.initialValue?.intent === 'transcript' ? result : undefined}
              />
            ) : null}
          </div>
        ) : item.thumbnail ? (
          <img
            {...wideImageSources(item.thumbnail)}
            width={item.thumbnail.width ?? undefined}
            height={item.thumbnail.height ?? undefined}
            alt=""
            className="mt-6 h-auto w-full rounded-2xl bg-navy-dark object-cover ring-1 ring-white/10"
          />
        ) : null}

        {item.content ? (
          <div
            className="mt-6 space-y-4 break-words text-lg leading-relaxed text-white/90 [&_a]:font-semibold [&_a]:text-accent [&_a]:underline [&_a]:underline-offset-4 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_strong]:text-white [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6"
            // The API sanitises every caption on the way in (docs/content.md: sanitize-html, a short allow-list).
            dangerouslySetInnerHTML={{ __html: item.content }}
          />
        ) : null}

        {item.presale ? (
          <div className="mt-8">
            <PresaleCard presale={item.presale} code={presaleCode} isOwner={isOwner} />
            {presaleCodes ? (
              <PresaleCodes
                itemId={item._id}
                codes={presaleCodes}
                query={codeQuery}
                error={errorsFor('revoke-code', 'presaleCodes')?.[0]}
              />
            ) : null}
          </div>
        ) : null}

        {item.poll ? <PollCard poll={item.poll} itemId={item._id} errors={pollErrors(result, item.poll._id)} /> : null}
      </article>

      <div className="mt-12 border-t border-white/10 pt-8">
        <Comments
          itemId={item._id}
          comments={comments.data}
          total={comments.total}
          offset={comments.offset}
          limit={COMMENTS_PAGE_SIZE}
          highlightId={commentId}
          pageHref={pageHref}
          momentHref={playable ? momentHref : undefined}
          actionResult={result}
          listErrors={errorsFor('delete-comment', 'comments') ?? errorsFor('hide-comment', 'comments')}
          blockedMessage={comments.blockedMessage}
          moderationHref={{
            block: (fanId) => `/${artistUsername}/account/moderation/block/${fanId}?${new URLSearchParams({ back: `${here}#comments` })}`,
            report: (commentId) =>
              `/${artistUsername}/account/report?${new URLSearchParams({ kind: 'comment', id: commentId, back: `${here}#comments` })}`,
          }}
        />
      </div>
    </div>
  );
}
