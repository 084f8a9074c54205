import type { ContentType, ItemView } from './content-types';

/** Content as the api answers it (docs/content.md): items with their media, polls and presales, comments, collections. */

/**
 * Where an uploaded file stands (docs/media.md): audio and video are `processing` until their job has made what fans
 * are served, then `ready`, or `failed` with a reason the artist is shown. Images are ready at once.
 */
export const MEDIA_STATUSES = ['processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** How many points a file's waveform has (`peaks`). */
export const PEAKS_POINTS = 200;

export interface Media {
  _id: string;
  kind: 'image' | 'audio' | 'video';
  /** The type of the file as uploaded (the artist's original). */
  mime: string;
  size: number;
  status: MediaStatus;
  /** Why processing failed, in words for the artist; null unless `failed`. */
  failureReason: string | null;
  /** Seconds, once probed (audio and video). */
  duration: number | null;
  /** The type of what `url` serves: audio/mp4 once audio is processed, application/vnd.apple.mpegurl (HLS) for video. */
  mimeType: string;
  /** The waveform of audio and of a video's sound: PEAKS_POINTS values from 0 to 1; null until processed. */
  peaks: number[] | null;
  /** A video's poster frame (WebP); null for other kinds and until processed. */
  poster: string | null;
  width: number | null;
  height: number | null;
  /** What fans are served: the processed stream once ready (the original before, for its artist only). */
  url: string;
  /**
   * A processed video's progressive MP4 (one rung of its ladder, H.264/AAC, with Range), signed for the viewer: for a
   * browser that plays no HLS with JavaScript off. In the item's own answer (GET /content/{id}) only; null elsewhere.
   */
  fallbackUrl: string | null;
  /** The file as uploaded: in answers to its artist only, for audio and video (null otherwise). */
  originalUrl: string | null;
  /** Images: the 480 px list size. */
  thumbnailUrl: string | null;
  /** Images wider than that: the 1280 px display size (null otherwise: show `url`). */
  largeUrl: string | null;
}

export interface PollAnswer {
  _id: string;
  text: string;
  votes: number | null;
}

export interface Poll {
  _id: string;
  enabled: boolean;
  title: string;
  answers: PollAnswer[];
  /** When the poll closes (ISO), or null for a poll that never does. */
  closesAt: string | null;
  /** Closed: votes are refused and everyone sees the final results. */
  closed: boolean;
  totalVotes: number | null;
  votedAnswerId: string | null;
  showResults: boolean;
}

export interface ContentItem {
  _id: string;
  performerId: string;
  performer: { _id: string; username: string; name: string; avatar: string };
  type: ContentType;
  typeLabel: string;
  title: string;
  content: string;
  mediaType: Exclude<ItemView, 'collection'>;
  state: 'draft' | 'scheduled' | 'published';
  publishAt: string;
  createdAt: string | null;
  updatedAt: string | null;
  /** The artist's own items only: the schedule as the post form holds it (DD/MM/YYYY and HH:MM, UTC). */
  schedule?: { enabled: boolean; date: string; time: string };
  thumbnail: Media | null;
  media: Media | null;
  poll: Poll | null;
  presale: { ticketUrl: string; saleStartsAt: string | null; saleEndsAt: string | null } | null;
  stats: { comments: number };
  isBookmarked: boolean;
  bookmarkedAt?: string;
  /** Search lists only (`q`): the title and the best matching passage, matched words between HIGHLIGHT marks. */
  highlight?: { title: string; excerpt: string | null };
}

export interface Comment {
  _id: string;
  itemId: string;
  text: string;
  /** The moment of the track or video the comment is about, in seconds (null: the whole item). */
  at: number | null;
  createdAt: string;
  author: { _id: string; username: string; name: string; avatar: string };
  isArtist: boolean;
  canDelete: boolean;
  /** Hidden by the artist: only its author and the artist see it. */
  hidden?: boolean;
  /** Held for the artist's review (a muted word): only its author and the artist see it, until it is approved. */
  held?: boolean;
  /** The viewer is the club's artist and the comment is a fan's: they may hide it or block its author. */
  canModerate?: boolean;
}

export interface Collection {
  _id: string;
  performerId: string;
  title: string;
  description: string;
  cover: Media | null;
  itemCount: number;
}

/** GET /collections/{id}: the collection, a page of its items, and the categories among all its items (for its filters). */
export interface CollectionDetail extends Collection {
  items: Page<ContentItem>;
  /** The content types present among the items the viewer may see, whatever the filter: the filter chips offered. */
  types: ContentType[];
}

export interface PresaleCode {
  _id: string;
  code: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface Page<T> {
  data: T[];
  total: number;
}
