/**
 * A batch whose process died is taken again at once, not after a long expiry: each api node that works jobs says
 * who it is (host and pid) and which jobs it is running, so a node starting on the same host (or on the same
 * embedded database, which one process holds) knows which nodes are dead and hands their jobs back
 * (api/jobs/queue.ts). And a fan's claim in a new-post fan-out names the job that made it, so that job's next run
 * takes it over at once (api/notifications/fanout.ts).
 */
export const sql = `
CREATE TABLE job_nodes (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);

-- The jobs a node is running now: a row from when its handler starts until it ends.
CREATE TABLE job_runs (
  job_id text PRIMARY KEY,
  queue text NOT NULL,
  node_id text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_runs_node_idx ON job_runs (node_id);

ALTER TABLE notifications ADD COLUMN claimed_by text;
`;
