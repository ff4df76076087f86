-- My shelf (issue 24): the catalogue items a person saved, and their named reading lists, ordered
-- by hand and private unless shared read-only by an unguessable link.
--
-- Everything here is one person's: it goes with their account (ON DELETE CASCADE to users), and
-- with an item should one ever be deleted rather than withdrawn.

CREATE TABLE saved_items (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  saved_at timestamptz NOT NULL DEFAULT now(),
  -- Orders saves made in the same instant (a test's fixed clock, two quick clicks) newest first.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (user_id, item_id)
);
-- One person's shelf, newest first.
CREATE INDEX saved_items_newest_idx ON saved_items (user_id, saved_at DESC, seq DESC);
-- The cascade from items.
CREATE INDEX saved_items_item_idx ON saved_items (item_id);

CREATE TABLE reading_lists (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  -- Set while the list is shared: the key of its link (24 random bytes, base64url). Turning
  -- sharing off clears it, so an old link stays dead even when sharing is turned on again.
  share_token text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reading_lists_user_idx ON reading_lists (user_id, created_at DESC);

CREATE TABLE reading_list_items (
  list_id uuid NOT NULL REFERENCES reading_lists (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  -- The owner's order, smallest first. Not unique: a reorder rewrites them all in one statement.
  position integer NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (list_id, item_id)
);
CREATE INDEX reading_list_items_order_idx ON reading_list_items (list_id, position);
CREATE INDEX reading_list_items_item_idx ON reading_list_items (item_id);
