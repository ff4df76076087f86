-- The author and category filters are substring matches (the spec's rule). Over the joined
-- names and subjects, a trigram index serves ILIKE '%text%' instead of a sequential scan.
CREATE INDEX items_authors_trgm_idx ON items USING gin (digi_join_words(authors) gin_trgm_ops);
CREATE INDEX items_subjects_trgm_idx ON items USING gin (digi_join_words(subjects) gin_trgm_ops);
