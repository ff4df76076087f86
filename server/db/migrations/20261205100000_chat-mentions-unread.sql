-- Attention in the chat (issue 26, decision 042): @mentions and unread markers.

-- Who a message mentions, resolved by the server from its `@name` tokens against the room's
-- members (never from anything the client says), at most ten per message. `name` is the username
-- as it was matched, so history shows the mention without reading `users` again. `room_id` lets
-- the room list ask "is one of my unread messages a mention?" through one index.
CREATE TABLE chat_mentions (
  message_id bigint NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
  name text NOT NULL,
  PRIMARY KEY (message_id, user_id)
);
CREATE INDEX chat_mentions_user_room_idx ON chat_mentions (user_id, room_id, message_id);

-- How far each person has read each room: the id of the last message they saw. Created at a
-- person's first visit (at the room's latest message then), moved forward only.
CREATE TABLE chat_read_markers (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
  last_read_id bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, room_id)
);

-- A mention of someone not in the room at that moment is a notice in their bell (and an e-mail
-- only if they turned e-mails of mentions on: decision 042).
ALTER TABLE notices DROP CONSTRAINT notices_kind_check;
ALTER TABLE notices ADD CONSTRAINT notices_kind_check CHECK (
  kind IN ('hold_offered', 'pickup_reminder', 'due_soon', 'overdue', 'request_status', 'moderation',
    'mention')
);
ALTER TABLE notice_preferences DROP CONSTRAINT notice_preferences_kind_check;
ALTER TABLE notice_preferences ADD CONSTRAINT notice_preferences_kind_check CHECK (
  kind IN ('hold_offered', 'pickup_reminder', 'due_soon', 'overdue', 'request_status', 'moderation',
    'mention')
);
