-- Library insights (issue 27): what people search for, view and open, as counts, never as a record
-- of what one person did (docs/privacy.md).
--
-- insight_events holds the raw events of the last INSIGHTS_RETENTION_DAYS days: one row per day,
-- kind, scope, subject and person key, with how many times. The person key is an HMAC of the
-- person (or, for a guest, the address) with the server's secret and the day: it counts distinct
-- people on one day and cannot be joined back to anyone, nor to the same person on another day.
-- The insights job reduces older days to insight_daily (the count and the distinct people of each
-- day as numbers) and deletes their raw rows.

CREATE TABLE insight_events (
  day date NOT NULL,
  -- search: a catalogue search (first page, with words); search_empty: one that found nothing;
  -- view: an item's details; open: a course material opened in the reader.
  kind text NOT NULL CHECK (kind IN ('search', 'search_empty', 'view', 'open')),
  -- A search's type tab ('book', 'paper', 'course' or 'all'); '' for the others.
  scope text NOT NULL DEFAULT '',
  -- The normalised search words, or the item's id.
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
  person text NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  PRIMARY KEY (day, kind, scope, subject, person)
);

CREATE TABLE insight_daily (
  day date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('search', 'search_empty', 'view', 'open')),
  scope text NOT NULL DEFAULT '',
  subject text NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  -- Distinct people that day: a number, nothing that names them.
  people integer NOT NULL CHECK (people > 0),
  PRIMARY KEY (day, kind, scope, subject)
);
-- A period's counts of one kind.
CREATE INDEX insight_daily_kind_day_idx ON insight_daily (kind, day);
