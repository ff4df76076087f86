-- Names people can trust (issue 19, decision 021).
--
-- A chat username and an open room's name are unique by their skeleton: the name with case,
-- width and look-alike letters of other scripts folded (Unicode TR39, server/chat/names.ts), so
-- that 'Librаrian' (a Cyrillic 'а') cannot stand beside 'Librarian'. The skeleton needs Unicode's
-- confusables data, which only the server's code holds, so existing rows get theirs when the
-- server starts (server/commands/backfill-name-skeletons.ts); until then they hold null, which a
-- unique index lets any number of rows hold. Closed rooms are deleted, so their names are free.
ALTER TABLE users ADD COLUMN chat_username_skeleton text;
CREATE UNIQUE INDEX users_chat_username_skeleton_key ON users (chat_username_skeleton);

ALTER TABLE chat_rooms ADD COLUMN name_skeleton text;
CREATE UNIQUE INDEX chat_rooms_name_skeleton_key ON chat_rooms (name_skeleton);

-- The forum badges a librarian's messages. The sender's role when the message was sent, decided by
-- the server; messages librarians sent before now get it from their present role.
ALTER TABLE chat_messages ADD COLUMN sender_is_staff boolean NOT NULL DEFAULT false;
UPDATE chat_messages m
SET sender_is_staff = true
FROM users u
WHERE u.id = m.sender_id AND u.role = 'librarian' AND NOT m.is_system;
