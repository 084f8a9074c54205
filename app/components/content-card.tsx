import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { ItemOrigin } from '#contract/content-types';
import { ItemArt } from './item-art';
import { LARGE_WIDTH, THUMB_WIDTH } from '#contract/image-sizes';
import type { ContentItem } from '#contract/content';
import type { CardImage, CardItem } from '~/utils/content.server';
import { Highlighted } from './highlighted';

/**
 * The cards of the content pages: a vault tile (grid) and a post (feed), with the helpers they share. The item
 * link carries what the item page needs: the viewer to open (`type`), where the fan came from (`from`),
 * and the collection when the item was opened from one.
 */

export function itemHref(artistUsername: string, item: Pick<ContentItem, '_id' | 'mediaType'>, from?: ItemOrigin, collectionId?: string) {
  const search = new URLSearchParams({ type: item.mediaType });
  if (from) search.set('from', from);
  if (collectionId) search.set('collectionId', collectionId);
  return `/${artistUsername}/vault/${encodeURIComponent(item._id)}?${search}`;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** Days already written out, by the item's timestamp: a list page shows the same items to every viewer. */
const daysWritten = new Map<string, string>();
const DAYS_KEPT = 2000;

export function formatDay(iso: string) {
  let day = daysWritten.get(iso);
  if (day === undefined) {
    day = dateFormat.format(new Date(iso));
    if (daysWritten.size >= DAYS_KEPT) daysWritten.clear();
    daysWritten.set(iso, day);
  }
  return day;
}

/** A date and time in GMT, as the scheduling widget speaks. */
export function formatMoment(iso: string) {
  return `${dateTimeFormat.format(new Date(iso))} GMT`;
}

/**
 * What the artist sees on their own items that fans do not see yet: Draft, when a scheduled item goes out, and a
 * file still processing (or failed), which holds the item back from fans until it is ready.
 */
export function StateBadge({ item }: { item: Pick<CardItem, 'state' | 'publishAt' | 'mediaStatus'> }) {
  const media = item.mediaStatus ? <MediaStatusBadge status={item.mediaStatus} /> : null;
  if (item.state === 'published') return media;
  return (
    <>
      <span className="inline-block w-fit rounded-full bg-white px-2.5 py-0.5 text-xs font-bold text-navy">
        {item.state === 'draft' ? 'Draft' : `Scheduled for ${formatMoment(item.publishAt)}`}
      </span>
      {media}
    </>
  );
}

export function MediaStatusBadge({ status }: { status: 'processing' | 'failed' }) {
  return status === 'processing' ? (
    <span className="inline-block w-fit rounded-full bg-accent/20 px-2.5 py-0.5 text-xs font-bold text-accent">Processing…</span>
  ) : (
    <span className="inline-block w-fit rounded-full bg-red-500/20 px-2.5 py-0.5 text-xs font-bold text-red-200">File failed</span>
  );
}

export function TypeLabel({ children }: { children: ReactNode }) {
  return <span className="text-xs font-bold uppercase tracking-wider text-accent">{children}</span>;
}

/**
 * The sources of a picture shown across a page column (a feed card, an item page): the 480 px list size on a
 * phone, the 1280 px display size where the column is wider or the screen denser, never the original upload
 * (up to 15 MB). An image without those sizes (a small one, an animated GIF) is its original.
 */
export function wideImageSources(image: CardImage) {
  const large = image.largeUrl ?? null;
  const srcSet =
    image.thumbnailUrl && large && image.width
      ? `${image.thumbnailUrl} ${THUMB_WIDTH}w, ${large} ${Math.min(image.width, LARGE_WIDTH)}w`
      : undefined;
  return { src: large ?? image.url, srcSet, sizes: srcSet ? '(min-width: 768px) 720px, 100vw' : undefined };
}

/** The item's kind as a glyph, where it has no picture. */
export function MediaGlyph({ kind, className = 'h-10 w-10' }: { kind: ContentItem['mediaType']; className?: string }) {
  const paths: Record<ContentItem['mediaType'], string> = {
    audio: 'M9 18V5l12-2v13M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0Zm12-2a3 3 0 1 1-6 0 3 3 0 0 1 6 0Z',
    video: 'M15 10l5-3v10l-5-3M4 6h11v12H4z',
    photo: 'M4 5h16v14H4zM4 15l4-4 5 5 3-3 4 4',
    post: 'M5 4h14v16H5zM8 8h8M8 12h8M8 16h5',
  };
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={`${className} text-accent/80`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
    >
      <path d={paths[kind]} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A vault tile: square picture (or artwork drawn from its title and category), category, title and date. */
export function VaultCard({
  artistUsername,
  item,
  from,
  collectionId,
}: {
  artistUsername: string;
  item: CardItem;
  from: ItemOrigin;
  collectionId?: string;
}) {
  const image = item.image;
  return (
    <li className="group relative flex flex-col overflow-hidden rounded-2xl bg-navy-light ring-1 ring-white/10 focus-within:ring-2 focus-within:ring-accent">
      <div className="relative flex aspect-square items-center justify-center bg-navy-dark">
        {image ? (
          <img
            src={image.thumbnailUrl ?? image.url}
            width={image.width ?? undefined}
            height={image.height ?? undefined}
            alt=""
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover transition group-hover:opacity-90"
          />
        ) : (
          <ItemArt title={item.title} type={item.type} />
        )}
        {item.mediaType === 'audio' || item.mediaType === 'video' ? (
          <span className="absolute bottom-2 left-2 rounded-full bg-navy/90 px-2 py-0.5 text-xs font-semibold text-white">
            {item.mediaType === 'audio' ? 'Audio' : 'Video'}
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        <TypeLabel>{item.typeLabel}</TypeLabel>
        <h3 className="line-clamp-2 text-base font-semibold leading-snug text-white">
          <Link to={itemHref(artistUsername, item, from, collectionId)} className="after:absolute after:inset-0 focus:outline-none">
            {item.highlight ? <Highlighted text={item.highlight.title} /> : item.title}
          </Link>
        </h3>
        {item.highlight?.excerpt ? (
          <p className="line-clamp-3 text-sm text-white/80">
            <Highlighted text={item.highlight.excerpt} />
          </p>
        ) : null}
        <p className="mt-auto text-sm text-white/70">
          <time dateTime={item.publishAt}>{formatDay(item.publishAt)}</time>
        </p>
        <StateBadge item={item} />
      </div>
    </li>
  );
}

/** A post in the feed: category, title, date, picture, the first lines of its text, and what follows. */
export function PostCard({
  artistUsername,
  item,
  from,
  children,
  headingLevel = 3,
}: {
  artistUsername: string;
  item: CardItem;
  from: ItemOrigin;
  /** The inline poll, when the card carries one. */
  children?: ReactNode;
  headingLevel?: 2 | 3;
}) {
  const image = item.image;
  const href = itemHref(artistUsername, item, from);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const text = item.excerpt;
  return (
    <article id={`item-${item._id}`} className="overflow-hidden rounded-2xl bg-navy-light ring-1 ring-white/10">
      {image ? (
        <Link to={href} tabIndex={-1} aria-hidden="true" className="block bg-navy-dark">
          <img
            {...wideImageSources(image)}
            width={image.width ?? undefined}
            height={image.height ?? undefined}
            alt=""
            loading="lazy"
            decoding="async"
            className="aspect-[16/9] w-full object-cover"
          />
        </Link>
      ) : null}
      <div className="p-5 sm:p-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <TypeLabel>{item.typeLabel}</TypeLabel>
          <time dateTime={item.publishAt} className="text-sm text-white/70">
            {formatDay(item.publishAt)}
          </time>
          <StateBadge item={item} />
        </div>
        <Heading className="mt-2 text-xl font-bold leading-snug text-white sm:text-2xl">
          <Link to={href} className="rounded hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent">
            {item.highlight ? <Highlighted text={item.highlight.title} /> : item.title}
          </Link>
        </Heading>
        {item.highlight?.excerpt ? (
          <p className="mt-2 text-base leading-relaxed text-white/85">
            <Highlighted text={item.highlight.excerpt} />
          </p>
        ) : text ? (
          <p className="mt-2 text-base leading-relaxed text-white/85">{text}</p>
        ) : null}
        {children}
        <p className="mt-4 text-sm">
          <Link
            to={`${href}#comments`}
            className="rounded font-semibold text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            {item.stats.comments === 0
              ? 'Read and comment'
              : `${item.stats.comments} ${item.stats.comments === 1 ? 'comment' : 'comments'}`}
            <span className="sr-only">: {item.title}</span>
          </Link>
        </p>
      </div>
    </article>
  );
}

/** A grid of vault tiles, or a calm note when nothing matches. */
export function VaultGrid({
  artistUsername,
  items,
  from,
  collectionId,
  empty,
  columns = 'grid-cols-2 md:grid-cols-3 lg:grid-cols-4',
}: {
  artistUsername: string;
  items: CardItem[];
  from: ItemOrigin;
  collectionId?: string;
  empty: ReactNode;
  /** The grid's column classes; the home page's narrower column takes fewer. */
  columns?: string;
}) {
  if (!items.length) return <EmptyNote>{empty}</EmptyNote>;
  return (
    <ul className={`grid gap-3 sm:gap-4 ${columns}`}>
      {items.map((item) => (
        <VaultCard key={item._id} artistUsername={artistUsername} item={item} from={from} collectionId={collectionId} />
      ))}
    </ul>
  );
}

export function EmptyNote({ children }: { children: ReactNode }) {
  return <div className="rounded-2xl border border-dashed border-white/25 px-6 py-12 text-center text-lg text-white/85">{children}</div>;
}

/** Previous and next page links over an offset, with where the fan is. Plain links: they work without JavaScript. */
export function Pager({
  offset,
  limit,
  total,
  hrefFor,
  label,
}: {
  offset: number;
  limit: number;
  total: number;
  hrefFor: (offset: number) => string;
  label: string;
}) {
  if (total <= limit && offset === 0) return null;
  const first = Math.min(offset + 1, total);
  const last = Math.min(offset + limit, total);
  const linkClass =
    'rounded-full border border-white/30 px-4 py-2 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';
  return (
    <nav aria-label={label} className="mt-6 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-white/75">
        {first}–{last} of {total}
      </p>
      <div className="flex gap-3">
        {offset > 0 ? (
          <Link to={hrefFor(Math.max(0, offset - limit))} className={linkClass}>
            Previous page
          </Link>
        ) : null}
        {offset + limit < total ? (
          <Link to={hrefFor(offset + limit)} className={linkClass}>
            Next page
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
