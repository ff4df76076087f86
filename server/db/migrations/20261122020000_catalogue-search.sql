-- The catalogue grows what a library needs: identifiers for idempotent imports, course-material
-- fields from the publish form, physical copies, held texts split into pages, and weighted
-- full-text search (title A, authors B, subjects C, description D) with a trigram "did you mean".
-- One text configuration (english) on both sides, so names stem the same in documents and queries.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- array_to_string is only STABLE; a generated column needs IMMUTABLE. Joining text is immutable.
CREATE FUNCTION digi_join_words(words text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_to_string(words, ' '), '') $$;

ALTER TABLE items
  ADD COLUMN isbn text CHECK (isbn ~ '^[0-9]{9}[0-9X]$'),
  ADD COLUMN arxiv_id text,
  ADD COLUMN doi text,
  ADD COLUMN url text,
  ADD COLUMN drive_link text,
  ADD COLUMN cover_url text,
  ADD COLUMN language text,
  ADD COLUMN institution text,
  ADD COLUMN genre text,
  ADD COLUMN published_date date,
  ADD COLUMN copies integer NOT NULL DEFAULT 0 CHECK (copies >= 0),
  ADD COLUMN page_count integer NOT NULL DEFAULT 0 CHECK (page_count >= 0),
  ADD COLUMN created_by text REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', digi_join_words(authors)), 'B') ||
    setweight(to_tsvector('english', digi_join_words(subjects)), 'C') ||
    setweight(to_tsvector('english', coalesce(description, '')), 'D')
  ) STORED;

CREATE INDEX items_search_idx ON items USING gin (search);
CREATE INDEX items_year_idx ON items (year);
CREATE INDEX items_title_idx ON items (lower(title));
CREATE UNIQUE INDEX items_isbn_unique ON items (isbn) WHERE isbn IS NOT NULL;
CREATE UNIQUE INDEX items_arxiv_unique ON items (arxiv_id) WHERE arxiv_id IS NOT NULL;

-- The text of a book the library holds, one row per page (numbered from 1).
CREATE TABLE item_pages (
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  page_number integer NOT NULL CHECK (page_number >= 1),
  content text NOT NULL,
  PRIMARY KEY (item_id, page_number)
);

-- Distinct words of the catalogue's titles, authors and subjects, for "did you mean": trigram
-- similarity over a few hundred thousand words is fast where over a million titles it is not.
CREATE TABLE search_words (
  word text PRIMARY KEY
);
CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);
