/**
 * Media processing (docs/media.md, decision 013): an audio or video upload is probed and transcoded by a job, and
 * says where it stands. What fans are served is stored beside the original (kept for the artist): the AAC stream of
 * an audio file, the HLS ladder and poster of a video. Media stored before this migration are `ready` and served as
 * they were uploaded.
 *
 * An item whose file is still processing waits for it (`media_pending`): fans see it, and are told of it, only once
 * its file is ready.
 */
export const sql = `
ALTER TABLE media ADD COLUMN status text NOT NULL DEFAULT 'ready' CHECK (status IN ('processing', 'ready', 'failed'));
ALTER TABLE media ADD COLUMN failure_reason text;
ALTER TABLE media ADD COLUMN codecs text;
ALTER TABLE media ADD COLUMN peaks jsonb;
ALTER TABLE media ADD COLUMN stream_key text;
ALTER TABLE media ADD COLUMN stream_mime text;
ALTER TABLE media ADD COLUMN stream_size bigint;
ALTER TABLE media ADD COLUMN poster_key text;
ALTER TABLE media ADD COLUMN poster_size bigint;
ALTER TABLE media ADD COLUMN processed_at timestamptz;

ALTER TABLE content_items ADD COLUMN media_pending boolean NOT NULL DEFAULT false;
`;
