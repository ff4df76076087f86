-- The chat's message rate (5 per 5 s per person) counted across processes: each person's recent
-- send times, updated in one locked statement per message. Only read while other processes are
-- up; a single process counts in memory (decision 014).
CREATE TABLE chat_send_times (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  times timestamptz[] NOT NULL
);
