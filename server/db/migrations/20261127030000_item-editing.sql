-- Librarians maintain the catalogue (issue 20): an item can be withdrawn (hidden from everyone but
-- librarians; reservations of it stay readable) and restored, and every change to an item or its
-- copies is recorded with who made it and when.
ALTER TABLE items
  ADD COLUMN withdrawn_at timestamptz,
  ADD COLUMN updated_by text REFERENCES users (id) ON DELETE SET NULL;

CREATE TABLE item_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  -- Kept when the account goes: the name it had then still says who.
  changed_by text REFERENCES users (id) ON DELETE SET NULL,
  changed_by_name text NOT NULL DEFAULT '',
  changed_at timestamptz NOT NULL DEFAULT now(),
  action text NOT NULL
    CHECK (action IN ('created', 'edited', 'withdrawn', 'restored', 'copy_added', 'copy_changed')),
  -- Each changed field's value before and after: {"title": {"from": "…", "to": "…"}}.
  changes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX item_changes_item_idx ON item_changes (item_id, id DESC);
