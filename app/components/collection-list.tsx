import { Link } from '@remix-run/react';
import { ItemArt } from './item-art';
import type { ItemOrigin } from '#contract/content-types';
import type { Collection } from '#contract/content';

/** The artist's collections as cards: cover, title, how many items, linking to the collection page. */
export function CollectionList({
  artistUsername,
  collections,
  from,
}: {
  artistUsername: string;
  collections: Collection[];
  from: ItemOrigin;
}) {
  return (
    <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {collections.map((collection) => (
        <li
          key={collection._id}
          className="relative flex gap-4 rounded-2xl bg-navy-light p-3 ring-1 ring-white/10 focus-within:ring-2 focus-within:ring-accent"
        >
          <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-navy-dark">
            {collection.cover ? (
              <img
                src={collection.cover.thumbnailUrl ?? collection.cover.url}
                width={collection.cover.width ?? undefined}
                height={collection.cover.height ?? undefined}
                alt=""
                loading="lazy"
                className="h-full w-full object-cover"
              />
            ) : (
              <ItemArt title={collection.title} type="post" />
            )}
          </div>
          <div className="min-w-0 self-center">
            <h3 className="line-clamp-2 text-base font-semibold text-white">
              <Link
                to={`/${artistUsername}/collection/${encodeURIComponent(collection._id)}?from=${from}`}
                className="after:absolute after:inset-0 focus:outline-none"
              >
                {collection.title}
              </Link>
            </h3>
            <p className="text-sm text-white/75">
              {collection.itemCount} {collection.itemCount === 1 ? 'item' : 'items'}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}
