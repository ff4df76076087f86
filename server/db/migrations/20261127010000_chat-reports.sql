-- Reports from the chat's browsers (issue 19): the browser's own check held a message back and
-- says so, with the text. Who reported which room, and when, for the moderators (their queue
-- comes later); one per person per room in ten minutes, counted in `rate_limits`.
--
-- `text` is kept only when the server's own matcher found abuse in it: then the report restricted
-- the room for everyone, and the text is the evidence a moderator needs to judge the restriction.
-- Text that did not match is kept nowhere (null): it was never sent to anyone, since the browser
-- held it back, so it is the person's own unsent draft, and storing whatever a client puts in a
-- report would let anyone write anything into the moderators' records.
CREATE TABLE chat_reports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reporter_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
  text text CHECK (length(text) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_reports_room_idx ON chat_reports (room_id, created_at);
CREATE INDEX chat_reports_reporter_idx ON chat_reports (reporter_id);
