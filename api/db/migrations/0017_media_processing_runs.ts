/**
 * Which process is transcoding a file, and as which job (docs/media.md): a process that starts can tell that its own
 * earlier process died mid-transcode and hand the job back at once, rather than after MEDIA_JOB_TIMEOUT_SECONDS.
 * Both are null while no run is under way.
 */
export const sql = `
ALTER TABLE media ADD COLUMN processing_job text;
ALTER TABLE media ADD COLUMN processing_by text;
`;
