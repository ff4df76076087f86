-- Search by meaning, storage (issue 23, decision 036).
--
-- One sentence embedding per catalogue item. The vector is kept as a plain `real[]`, not as
-- pgvector's `vector` type, so this migration applies on every PostgreSQL, pgvector or not: where
-- the extension is present, `prepareVectorSearch` (server/db/vector.ts) creates it and an HNSW
-- index over `embedding::vector(512)` at start-up, and the stored rows serve at once, with
-- nothing to compute again.
CREATE TABLE item_embeddings (
  item_id uuid PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
  model text NOT NULL,          -- which model made it, e.g. 'use-lite-512'
  text_hash text NOT NULL,      -- md5 of the text that was embedded: re-embed when it changes
  embedding real[] NOT NULL,    -- 512 floats, unit length
  embedded_at timestamptz NOT NULL DEFAULT now()
);
