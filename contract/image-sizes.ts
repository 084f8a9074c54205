// The widths of the image variants the api stores beside every upload (api/media/images.ts), which the pages name
// in their srcset: one module for both, so the two never disagree.

/** The list size of an image: what a grid tile, a card or a cover needs on a phone. */
export const THUMB_WIDTH = 480;
/**
 * The display size of an image: a photo's own page and a wide feed card, sharp on a 2× phone screen. An
 * original of up to 15 MB (a 6000 px camera JPEG) is never what a page shows; it stays reachable by its own link.
 */
export const LARGE_WIDTH = 1280;
