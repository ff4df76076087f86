-- Search candidates by relevance (issue 22, decision 048): a word search ranks the items whose
-- title and authors together hold every word, found through this index at any catalogue size,
-- instead of the items whose titles alone hold them beside the first matches found in the
-- table's order. An author's books ('king', 'christie death') are then candidates wherever they
-- sit in the table. It replaces the titles' own index, which nothing else reads.
DROP INDEX IF EXISTS items_title_search_idx;
CREATE INDEX items_title_author_search_idx ON items USING gin (ts_filter(search, '{a,b}'));
