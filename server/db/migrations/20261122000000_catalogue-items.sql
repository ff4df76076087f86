-- The catalogue: books, research papers and course materials in one table.
-- Search columns and indexes come with the catalogue search work; this is the shape the
-- demo data needs from the first start.
CREATE TABLE items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('book', 'paper', 'course')),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 500),
  authors text[] NOT NULL DEFAULT '{}',
  year integer CHECK (year BETWEEN -3000 AND 3000),
  subjects text[] NOT NULL DEFAULT '{}',
  description text,
  source text NOT NULL,
  source_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT items_source_unique UNIQUE (source, source_id)
);

CREATE INDEX items_kind_created_idx ON items (kind, created_at DESC);
