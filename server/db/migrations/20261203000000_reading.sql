-- Reading a held text (issue 24): where each person left off in each book, how they like pages
-- shown, their bookmarks and their highlights with notes. All of it is private to its owner and
-- goes with the account or the item (ON DELETE CASCADE); `users.id` is better-auth's text id.

-- The last page read, one row per person and book: "resume" on any device, and "Continue
-- reading" (newest first, by reading_progress_recent_idx).
CREATE TABLE reading_progress (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  page integer NOT NULL CHECK (page >= 1),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, item_id)
);
CREATE INDEX reading_progress_recent_idx ON reading_progress (user_id, updated_at DESC);
-- Deleting an item finds its rows without reading every person's.
CREATE INDEX reading_progress_item_idx ON reading_progress (item_id);

-- How one person likes pages shown. No row: the defaults (contract/http/reading.ts).
CREATE TABLE reading_preferences (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  theme text NOT NULL DEFAULT 'light' CHECK (theme IN ('light', 'sepia', 'dark')),
  text_size text NOT NULL DEFAULT 'medium'
    CHECK (text_size IN ('small', 'medium', 'large', 'x-large')),
  line_width text NOT NULL DEFAULT 'medium' CHECK (line_width IN ('narrow', 'medium', 'wide')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A bookmark is a page; marking it twice is one bookmark.
CREATE TABLE bookmarks (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  page integer NOT NULL CHECK (page >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, item_id, page)
);
CREATE INDEX bookmarks_item_idx ON bookmarks (item_id);

-- A passage of one page, anchored by offsets into the page's plain text (`pagePlainText`), with
-- the passage itself kept: if the page's text ever changes, the quote still says what was meant.
CREATE TABLE highlights (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  page integer NOT NULL CHECK (page >= 1),
  start_offset integer NOT NULL CHECK (start_offset >= 0),
  end_offset integer NOT NULL CHECK (end_offset > start_offset),
  quote text NOT NULL CHECK (length(quote) BETWEEN 1 AND 2000),
  note text NOT NULL DEFAULT '' CHECK (length(note) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One person's highlights in one book, in reading order (and their count, for the cap).
CREATE INDEX highlights_reader_idx ON highlights (user_id, item_id, page, start_offset);
CREATE INDEX highlights_item_idx ON highlights (item_id);

-- Search inside a book: each page's words, stemmed with the catalogue's configuration (english),
-- made once when the page is written. A search reads one book's pages through the primary key
-- (item_id, page_number) and tests them; a 1,000-page book stays inside its budget
-- (bench/search-inside.ts), so no GIN index over every book's pages is kept up.
-- And a book's contents: each page's heading lines (`#` first on the line; the others emptied),
-- so the contents read these few characters instead of every page's whole text.
ALTER TABLE item_pages
  ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
  ADD COLUMN headings text GENERATED ALWAYS AS (
    btrim(regexp_replace(content, '^(?![ \t]*#).*$', '', 'gn'), E'\n\r')
  ) STORED;
