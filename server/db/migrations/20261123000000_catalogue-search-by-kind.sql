-- Search counts and ranks a bounded set of matches, and the result tabs search one type. So that
-- a type with few matches among many (books among 35,000 'quant…' papers) is found without
-- reading every match from the table, the full-text index also holds each item's type as one
-- more lexeme ('kind_book', 'kind_paper', 'kind_course'; the english parser never makes a
-- lexeme with '_'), and a query ANDs it in. The same index answers untyped queries, so it
-- replaces the plain one. Queries must repeat the indexed expression exactly.
CREATE INDEX items_search_kind_idx ON items USING gin (
  (search || array_to_tsvector(ARRAY['kind_' || kind]))
);
DROP INDEX items_search_idx;
