-- Librarians upload MARC and holdings files in the app (issue 20). The file is kept in the
-- database in pieces until its import has run, so whichever server process takes the job (they
-- share PostgreSQL) can read it; the import's progress and report stay for the desk to read.
CREATE TABLE catalogue_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('marc', 'holdings')),
  file_name text NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  -- Records (MARC) or lines (CSV) counted while the file arrived: what progress is measured by.
  rows_expected integer NOT NULL DEFAULT 0,
  rows_read integer NOT NULL DEFAULT 0,
  -- `uploading` until the whole file is in: then it is queued, and shown.
  state text NOT NULL DEFAULT 'uploading'
    CHECK (state IN ('uploading', 'queued', 'running', 'done', 'failed')),
  -- The importer's totals and first bad rows, once it has run.
  report jsonb,
  error text,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_by_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX catalogue_imports_created_idx ON catalogue_imports (created_at DESC);
CREATE INDEX catalogue_imports_uploading_idx ON catalogue_imports (created_at)
  WHERE state = 'uploading';

CREATE TABLE catalogue_import_chunks (
  import_id uuid NOT NULL REFERENCES catalogue_imports (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (import_id, seq)
);
