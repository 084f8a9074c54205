/**
 * An image's display size: a 1280 px WebP beside the 480 px thumbnail, for a photo's own page and wide feed cards
 * (api/media/images.ts). Null for images no wider than their thumbnail, animated GIFs, and images uploaded before
 * this migration: pages then show the original.
 */
export const sql = `
ALTER TABLE media ADD COLUMN large_key text;
ALTER TABLE media ADD COLUMN large_size bigint;
`;
