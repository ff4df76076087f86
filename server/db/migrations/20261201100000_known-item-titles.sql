-- Known-item search, second part (issue 22, decision 032).
--
-- A title is searched as people type it: apostrophes join a word ("Who's" is 'whos', "I'm" is
-- 'im'), every other mark is a space ("D.N.Angel" is 'd n angel'). The parser alone made
-- "Who's" 'who' and "D.N.Angel" one odd token, so typed plainly those titles found nothing.
-- The title's part of the search vector, its keys and the vocabulary all read the title so.
-- Marks are listed, not matched by a class: a character class follows the locale, and the
-- letters of every script must stay letters.
CREATE FUNCTION digi_title_text(title text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT regexp_replace(regexp_replace(title, '[''’ʼ‘`´]', '', 'g'),
                              '[][!"#$%&()*+,./:;<=>?@\\^_{|}~‐‑–—―…“”„«»‹›¡¿·•-]+', ' ', 'g') $$;

-- The title's words as typed, lower case, one space apart: a title that is exactly the query
-- ("The Collected Poems", not "Collected Poems"; "Rules", not "Rule") ranks before one that
-- only stems to the same words. (Functions called inside an index's expression must be
-- built-ins: indexes are built with a search path of the system catalogue alone.)
CREATE FUNCTION digi_title_words(title text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT btrim(regexp_replace(lower(regexp_replace(
           regexp_replace(title, '[''’ʼ‘`´]', '', 'g'),
           '[][!"#$%&()*+,./:;<=>?@\\^_{|}~‐‑–—―…“”„«»‹›¡¿·•-]+', ' ', 'g')), '\s+', ' ', 'g')) $$;

-- The same of the main title (before a ':', '(' or '['), or of the whole when that is empty.
CREATE FUNCTION digi_main_title_words(title text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT btrim(regexp_replace(lower(regexp_replace(
           regexp_replace(
             CASE WHEN btrim(regexp_replace(title, '\s*[:(\[].*$', '')) = '' THEN title
                  ELSE regexp_replace(title, '\s*[:(\[].*$', '') END,
             '[''’ʼ‘`´]', '', 'g'),
           '[][!"#$%&()*+,./:;<=>?@\\^_{|}~‐‑–—―…“”„«»‹›¡¿·•-]+', ' ', 'g')), '\s+', ' ', 'g')) $$;

-- Titles of stop words alone ("It", "Once", "Me Before You") have no lexeme to search by: they
-- are found by their words as typed, through this index.
CREATE INDEX items_main_title_words_idx ON items (digi_main_title_words(title));

DROP INDEX items_search_kind_idx;
DROP INDEX items_title_search_idx;
DROP INDEX items_title_key_idx;
DROP INDEX items_main_title_key_idx;
ALTER TABLE items DROP COLUMN search, DROP COLUMN title_key, DROP COLUMN main_title_key;
ALTER TABLE items
  ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', digi_title_text(title)), 'A') ||
    setweight(to_tsvector('english', digi_join_words(authors)), 'B') ||
    setweight(to_tsvector('english', digi_join_words(subjects)), 'C') ||
    setweight(to_tsvector('english', coalesce(description, '')), 'D')
  ) STORED,
  ADD COLUMN title_key text GENERATED ALWAYS AS (
    md5(strip(to_tsvector('english', digi_title_text(title)))::text)
  ) STORED,
  ADD COLUMN main_title_key text GENERATED ALWAYS AS (
    md5(strip(to_tsvector('english', digi_title_text(regexp_replace(title, '\s*[:(\[].*$', ''))))::text)
  ) STORED;
CREATE INDEX items_search_kind_idx ON items USING gin (
  (search || array_to_tsvector(ARRAY['kind_' || kind]))
);
CREATE INDEX items_title_search_idx ON items USING gin (ts_filter(search, '{a}'));
CREATE INDEX items_title_key_idx ON items (title_key);
CREATE INDEX items_main_title_key_idx ON items (main_title_key);

-- The vocabulary learns the joined words ('whos'), as the search vector now holds them.
INSERT INTO search_words (word, documents)
SELECT word, ndoc FROM ts_stat($$SELECT to_tsvector('simple', digi_title_text(title)) FROM items$$)
WHERE length(word) BETWEEN 3 AND 40 AND word ~ '^[[:alpha:]]+$'
ON CONFLICT (word) DO NOTHING;

-- Popularity breaks ties between equally relevant matches ("Legend" by Marie Lu or by David
-- Gemmell): how many ratings the source counted (Goodreads' ratings_count, kept by the importer)
-- and how often the item was reserved or lent here (`circulation`, recounted by the job queue).
ALTER TABLE items
  ADD COLUMN ratings_count integer CHECK (ratings_count >= 0),
  ADD COLUMN circulation integer NOT NULL DEFAULT 0 CHECK (circulation >= 0);
