/** A track the player in the layout plays (an item's audio), as the pages hand it over. */
export interface Track {
  itemId: string;
  title: string;
  artistName: string;
  /** The item's page, for the mini-player's title link. */
  href: string;
  /** The signed link of the audio. */
  src: string;
  /** The item's picture (its thumbnail), for the mini-player and the lock screen. */
  artwork: string | null;
}

/** What the pages and the mini-player see of the player. */
export interface PlayerState {
  queue: Track[];
  index: number;
  playing: boolean;
  /** Seconds. */
  position: number;
  /** Seconds; 0 until the browser knows it. */
  duration: number;
}

export const IDLE: PlayerState = { queue: [], index: -1, playing: false, position: 0, duration: 0 };

/** The track of an item with audio (null for any other item). */
export function trackOf(
  item: {
    _id: string;
    title: string;
    performer: { name: string };
    media: { kind: string; url: string } | null;
    thumbnail: { url: string; thumbnailUrl: string | null } | null;
  },
  href: string,
): Track | null {
  if (item.media?.kind !== 'audio') return null;
  return {
    itemId: item._id,
    title: item.title,
    artistName: item.performer.name,
    href,
    src: item.media.url,
    artwork: item.thumbnail ? (item.thumbnail.thumbnailUrl ?? item.thumbnail.url) : null,
  };
}
