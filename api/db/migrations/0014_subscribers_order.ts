/**
 * An artist's subscribers are listed newest first (the studio) and counted by the month they joined (earnings): an
 * index in that order reads a page of them, or a year of joins, without sorting or scanning every subscription of
 * every artist, so the studio and earnings pages do not slow down as the club grows.
 */
export const sql = `
CREATE INDEX subscriptions_artist_started_idx ON subscriptions (artist_id, started_at DESC, id);
`;
