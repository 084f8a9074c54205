/**
 * The check of tracks saved for offline listening (docs/listening.md "Offline"): which of the items saved in a
 * browser the signed-in fan may still open. Shared by the web tier's /offline/check, which the service worker asks,
 * and the api's GET /content/offline-check, which answers it.
 */

/** At most this many items are asked about in one request. */
export const OFFLINE_CHECK_LIMIT = 100;

/** A content item's id as the api makes them (a UUID) or as seeded content names them. */
const ITEM_ID = /^[\w-]{1,64}$/;

/** A fan with hundreds of saved tracks asks in a few batches each minute at most; a script asking all day is refused. */
export const OFFLINE_CHECKS_PER_USER = { points: 60, durationSeconds: 10 * 60 } as const;

export const offlineMessages = {
  badId: 'Each id must be a content item id: letters, digits, _ and -, at most 64 characters.',
  tooMany: `Ask about at most ${OFFLINE_CHECK_LIMIT} items at a time.`,
  tooOften: 'Too many checks of saved tracks. Please wait a few minutes and try again.',
} as const;

/** The ids of a check, each once, or why they cannot be asked about. */
export function readCheckIds(values: readonly unknown[]): { ids: string[] } | { error: string } {
  if (!values.every((value): value is string => typeof value === 'string' && ITEM_ID.test(value))) return { error: offlineMessages.badId };
  const ids = [...new Set(values as string[])];
  if (ids.length > OFFLINE_CHECK_LIMIT) return { error: offlineMessages.tooMany };
  return { ids };
}
