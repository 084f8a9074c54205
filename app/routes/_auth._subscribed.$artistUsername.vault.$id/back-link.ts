import { isVaultCategory, type ItemOrigin } from '#contract/content-types';

const BACK: Record<ItemOrigin, { path: string; label: string }> = {
  vault: { path: '/vault', label: 'Back to the vault' },
  home: { path: '', label: 'Back to home' },
  posts: { path: '/posts', label: 'Back to posts' },
  bookmarks: { path: '/account/bookmarks', label: 'Back to your bookmarks' },
};

/** Where "back" goes: the collection the item was opened from, else `from`, else the item's own section. */
export function backLink(
  artistUsername: string,
  item: { type: string },
  from: ItemOrigin | undefined,
  collection: { _id: string; title: string } | null,
) {
  if (collection) {
    const search = from ? `?from=${from}` : '';
    return { to: `/${artistUsername}/collection/${encodeURIComponent(collection._id)}${search}`, label: `Back to ${collection.title}` };
  }
  const origin = from ?? (isVaultCategory(item.type) ? 'vault' : 'posts');
  return { to: `/${artistUsername}${BACK[origin].path}`, label: BACK[origin].label };
}
