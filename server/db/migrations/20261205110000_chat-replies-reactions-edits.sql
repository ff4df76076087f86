-- Replies, reactions, edits and deletions (issue 26, decision 043).

-- A reply names the message it answers (same room: the server checks). A message is never
-- removed alone (only with its room), so SET NULL is only a guard.
ALTER TABLE chat_messages
  ADD COLUMN reply_to bigint REFERENCES chat_messages (id) ON DELETE SET NULL,
  -- The sender's last edit, shown as "edited".
  ADD COLUMN edited_at timestamptz,
  -- Deleted by its sender: the text stays stored for the moderators, members read
  -- "message deleted".
  ADD COLUMN deleted_at timestamptz,
  -- The last edit, deletion, hide, restore or reaction: a reconnecting client is sent the
  -- messages it holds that changed (decision 043).
  ADD COLUMN changed_at timestamptz;

-- One row per message, person and emoji: a second toggle removes it. The name is the one the
-- person had when they reacted, as a message keeps its sender's.
CREATE TABLE chat_message_reactions (
  message_id bigint NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  user_name text NOT NULL,
  emoji text NOT NULL CHECK (emoji IN ('👍', '❤️', '😂', '🎉', '😮', '🙏')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (message_id, user_id, emoji)
);
