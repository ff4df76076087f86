-- Rate-limit counters hold e-mail and IP addresses in their keys: the sweeper deletes each row once
-- its window has passed (server/http/rate-limit.ts, pruneRateLimits). A row did not know its own
-- window, so it now keeps the instant it ends; the upsert sets it.
ALTER TABLE rate_limits ADD COLUMN expires_at timestamptz;
-- Rows from before this column: no window in use was longer than an hour.
UPDATE rate_limits SET expires_at = window_started_at + interval '1 hour';
ALTER TABLE rate_limits ALTER COLUMN expires_at SET NOT NULL;
CREATE INDEX rate_limits_expires_at_idx ON rate_limits (expires_at);
