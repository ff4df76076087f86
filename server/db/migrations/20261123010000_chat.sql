-- The discussion forum: rooms, their messages, who is in which room now, and the table the
-- Socket.IO Postgres adapter keeps large cross-process payloads in.

-- The forum's chosen username, kept on the profile so it follows the person across devices.
ALTER TABLE users
  ADD COLUMN chat_username text CHECK (length(chat_username) BETWEEN 2 AND 30);

CREATE TABLE chat_rooms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 300),
  -- The creator is the account that created the room; creator_name is what the room shows.
  creator_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  creator_name text NOT NULL,
  -- Set when a message was refused as abusive; the creator or a librarian lifts it.
  abuse_detected boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- Names are unique ignoring case: 'Physics' and 'physics' are one room.
CREATE UNIQUE INDEX chat_rooms_name_key ON chat_rooms (lower(name));

CREATE TABLE chat_messages (
  -- Increasing ids order a room's messages and let a reconnecting client ask for what it missed.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
  sender_id text REFERENCES users (id) ON DELETE SET NULL,
  sender_name text NOT NULL,
  content text NOT NULL CHECK (length(content) BETWEEN 1 AND 2000),
  is_system boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_room_idx ON chat_messages (room_id, id DESC);

-- Server processes that hold sockets, with a heartbeat: presence rows of a process that stopped
-- beating (killed, crashed) stop counting without anyone cleaning up after it.
CREATE TABLE chat_servers (
  id text PRIMARY KEY,
  seen_at timestamptz NOT NULL
);

-- Which socket is in which room, for the member counts every process agrees on.
CREATE TABLE chat_presence (
  socket_id text PRIMARY KEY,
  server_id text NOT NULL,
  room_id uuid NOT NULL REFERENCES chat_rooms (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  joined_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_presence_room_idx ON chat_presence (room_id);
CREATE INDEX chat_presence_server_idx ON chat_presence (server_id);

-- Socket.IO's Postgres adapter (several processes on one PostgreSQL) keeps payloads over
-- NOTIFY's 8,000-byte limit here; unused on the embedded database.
CREATE TABLE socket_io_attachments (
  id bigserial UNIQUE,
  created_at timestamptz DEFAULT now(),
  payload bytea
);
