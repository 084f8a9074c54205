/**
 * Listening like a fan (docs/listening.md): comments on a moment of a track, the artist's "keep what you paid for"
 * setting, an item's transcript (its timed lines, and their text for search) and full-text search of the vault.
 */
export const sql = `
-- On by default: a fan whose paid membership lapsed keeps the items published while they paid (decision 014).
ALTER TABLE artist_profiles ADD COLUMN keep_paid_items boolean NOT NULL DEFAULT true;

-- The moment of the track or video a comment is about, in seconds from its start (null: the whole item).
ALTER TABLE comments ADD COLUMN at_seconds double precision CHECK (at_seconds >= 0);

-- The artist's captions or typed transcript as timed lines [{ start, end, text }], and their text for search.
ALTER TABLE content_items ADD COLUMN transcript_cues jsonb;
ALTER TABLE content_items ADD COLUMN transcript text NOT NULL DEFAULT '';

-- Search of an artist's vault and posts: title first, then the caption (without its tags), then the transcript.
ALTER TABLE content_items ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', title), 'A')
  || setweight(to_tsvector('english', regexp_replace(content, '<[^>]*>', ' ', 'g')), 'B')
  || setweight(to_tsvector('english', transcript), 'C')
) STORED;
CREATE INDEX content_items_search_idx ON content_items USING gin (search);
`;
