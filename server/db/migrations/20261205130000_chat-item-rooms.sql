-- The library in the conversation (issue 26, decision 045): a room can be tied to one catalogue
-- item ("Discuss this book"). At most one room per item, by a unique index, so two people pressing
-- at once get the same room; closing the room frees the item for a new one, and an item that goes
-- away leaves its room as an ordinary one.
ALTER TABLE chat_rooms ADD COLUMN item_id uuid REFERENCES items (id) ON DELETE SET NULL;
CREATE UNIQUE INDEX chat_rooms_item_unique ON chat_rooms (item_id) WHERE item_id IS NOT NULL;
