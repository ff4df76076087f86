-- Idempotent sends (issue 19): a message may carry an id its client made, sent again with every
-- retry of it. A message stored but never acknowledged (its process died in between) is then not
-- stored twice: the index lets one row per sender and id in, whichever of two concurrent sends
-- (on one process or two) comes first, and the other is answered with that row.
ALTER TABLE chat_messages ADD COLUMN client_id uuid;
CREATE UNIQUE INDEX chat_messages_client_id_key ON chat_messages (sender_id, client_id)
  WHERE client_id IS NOT NULL;
