-- Moderation by people (issue 26, decision 040): members report a message, librarians act on the
-- reports (dismiss, hide, restore, mute, remove), every action is recorded, and a room's creator
-- sets the room's rules. Everything a send must obey lives here, not in a process's memory, so
-- that every process enforces the same mutes, hides and slow mode.

-- A hidden message stays stored: members see "message removed by a moderator" in its place, and
-- a librarian may restore it.
ALTER TABLE chat_messages ADD COLUMN hidden_at timestamptz;
-- Slow mode asks for a person's last message in a room.
CREATE INDEX chat_messages_sender_room_idx ON chat_messages (room_id, sender_id, created_at DESC);

-- A room's rules, set by its creator or a librarian. Slow mode: one message per N seconds per
-- person (0: off). The room's own words, added to the matcher for this room. Members only: since
-- that moment only those who had joined before it (chat_room_members) may post. Rules: shown to
-- a person on joining.
ALTER TABLE chat_rooms
  ADD COLUMN slow_mode_seconds integer NOT NULL DEFAULT 0
    CHECK (slow_mode_seconds = 0 OR slow_mode_seconds BETWEEN 5 AND 300),
  ADD COLUMN words text[] NOT NULL DEFAULT '{}' CHECK (cardinality(words) <= 100),
  ADD COLUMN members_only_since timestamptz,
  ADD COLUMN rules text NOT NULL DEFAULT '' CHECK (length(rules) <= 1000);

-- Who has joined a room at least once, and when first: the members of a members-only room.
CREATE TABLE chat_room_members (
  room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (room_id, user_id)
);

-- A member's report of one message: one per person per message, counted per message. Open until
-- a librarian acts on the message (`resolved_at`).
CREATE TABLE chat_message_reports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id bigint NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
  reporter_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('spam', 'harassment', 'hate', 'off-topic', 'other')),
  text text NOT NULL DEFAULT '' CHECK (length(text) <= 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  CONSTRAINT chat_message_reports_once UNIQUE (message_id, reporter_id)
);
CREATE INDEX chat_message_reports_open_idx ON chat_message_reports (message_id)
  WHERE resolved_at IS NULL;

-- Every moderator's action, with who and why: the queue's history.
CREATE TABLE moderation_actions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor_id text REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  action text NOT NULL CHECK (action IN ('dismiss', 'hide', 'restore', 'mute', 'remove')),
  target_user_id text REFERENCES users (id) ON DELETE SET NULL,
  target_name text NOT NULL DEFAULT '',
  message_id bigint REFERENCES chat_messages (id) ON DELETE SET NULL,
  room_id uuid REFERENCES chat_rooms (id) ON DELETE SET NULL,
  room_name text NOT NULL DEFAULT '',
  -- A mute's reach: this room, or every room.
  scope text CHECK (scope IN ('room', 'everywhere')),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  ends_at timestamptz
);
CREATE INDEX moderation_actions_recent_idx ON moderation_actions (id DESC);

-- Mutes and removals in force: a send, and for a removal a join, is refused until `ends_at`.
-- `room_id` null: every room.
CREATE TABLE chat_sanctions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  room_id uuid REFERENCES chat_rooms (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('mute', 'remove')),
  reason text NOT NULL,
  ends_at timestamptz NOT NULL,
  action_id bigint REFERENCES moderation_actions (id) ON DELETE SET NULL
);
CREATE INDEX chat_sanctions_user_idx ON chat_sanctions (user_id, ends_at);

-- The affected person's notice (the bell, and e-mail unless they turned it off).
ALTER TABLE notices DROP CONSTRAINT notices_kind_check;
ALTER TABLE notices ADD CONSTRAINT notices_kind_check CHECK (
  kind IN ('hold_offered', 'pickup_reminder', 'due_soon', 'overdue', 'request_status', 'moderation')
);
ALTER TABLE notice_preferences DROP CONSTRAINT notice_preferences_kind_check;
ALTER TABLE notice_preferences ADD CONSTRAINT notice_preferences_kind_check CHECK (
  kind IN ('hold_offered', 'pickup_reminder', 'due_soon', 'overdue', 'request_status', 'moderation')
);
