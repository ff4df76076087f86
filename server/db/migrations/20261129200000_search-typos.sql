-- Search that forgives typos and ranks by relevance at any size (issue 22, decision 032).
--
-- `search_words` is the catalogue's vocabulary, where a query word's corrections are looked up
-- (server/catalogue/typos.ts); `documents` counts the items holding each word, so that of two
-- corrections equally close, the commoner one is tried first ('potter' before 'pater').
ALTER TABLE search_words ADD COLUMN documents integer NOT NULL DEFAULT 1;
UPDATE search_words w SET documents = s.ndoc
FROM ts_stat($$SELECT to_tsvector('simple', title || ' ' || digi_join_words(authors) || ' ' || digi_join_words(subjects)) FROM items$$) s
WHERE s.word = w.word;

-- A title's words, as one key (hyphens read as spaces, so 'Half-Blood' is 'half blood'), and the
-- same of its main title (before a ':', '(' or '['): an exact title is found by the index
-- whatever the number of other matches, so it can always rank first, and "Black" finds
-- "Black: The Birth of Evil" before "Black-Eyed Susans".
ALTER TABLE items
  ADD COLUMN title_key text GENERATED ALWAYS AS (
    md5(strip(to_tsvector('english', regexp_replace(title, '[-‐–]', ' ', 'g')))::text)
  ) STORED,
  ADD COLUMN main_title_key text GENERATED ALWAYS AS (
    md5(strip(to_tsvector('english',
      regexp_replace(regexp_replace(title, '\s*[:(\[].*$', ''), '[-‐–]', ' ', 'g')))::text)
  ) STORED;
CREATE INDEX items_title_key_idx ON items (title_key);
CREATE INDEX items_main_title_key_idx ON items (main_title_key);

-- The title's words alone: the candidates a broad query ranks are chosen among title matches
-- first, not among the first rows of the table that mention the words anywhere.
CREATE INDEX items_title_search_idx ON items USING gin (ts_filter(search, '{a}'));
