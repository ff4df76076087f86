-- Resource requests (purchase suggestions) and physical-book reservations.
--
-- Copies are never over-booked: a reservation is written inside one transaction that first
-- locks the holder's users row and then the book's items row (always in that order, so two
-- transactions never wait on each other in a cycle), counts the copies already held and only
-- then inserts. The partial unique index below is the last word on "never two of the same book".

-- Copies the library owns but cannot lend through reservations right now (on loan outside this
-- system, in repair, missing). Free copies = copies - copies_unavailable - held reservations.
ALTER TABLE items
  ADD COLUMN copies_unavailable integer NOT NULL DEFAULT 0 CHECK (copies_unavailable >= 0),
  ADD CONSTRAINT items_copies_unavailable_within_copies CHECK (copies_unavailable <= copies);

CREATE INDEX items_reservable_idx ON items (title) WHERE copies > 0;

CREATE TABLE resource_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  requester_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The name the request shows (the form's `student` field), not an identity.
  requester_name text NOT NULL CHECK (length(requester_name) BETWEEN 1 AND 120),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 300),
  description text CHECK (length(description) <= 2000),
  resource_type text NOT NULL DEFAULT 'other'
    CHECK (resource_type IN ('book', 'journal', 'article', 'courseMaterial', 'other')),
  institution_name text NOT NULL CHECK (length(institution_name) BETWEEN 1 AND 200),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'accepted', 'ordered', 'available', 'rejected')),
  status_reason text CHECK (length(status_reason) <= 500),
  status_changed_at timestamptz,
  status_changed_by text REFERENCES users (id) ON DELETE SET NULL,
  -- Kept in step with request_supporters so "sort by support" needs no aggregate.
  supporters integer NOT NULL DEFAULT 1 CHECK (supporters >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT resource_requests_rejection_reason
    CHECK (status <> 'rejected' OR status_reason IS NOT NULL)
);
CREATE INDEX resource_requests_requester_idx ON resource_requests (requester_id, created_at DESC);
CREATE INDEX resource_requests_created_idx ON resource_requests (created_at DESC);
CREATE INDEX resource_requests_open_title_trgm_idx ON resource_requests
  USING gin (lower(title) gin_trgm_ops) WHERE status IN ('pending', 'accepted', 'ordered');

-- Everyone who wants a request: its requester (added with it) and those who added their +1.
CREATE TABLE request_supporters (
  request_id uuid NOT NULL REFERENCES resource_requests (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_id, user_id)
);
CREATE INDEX request_supporters_user_idx ON request_supporters (user_id);

-- Reservation ids are 'RES-' and digits from a sequence: unique by construction (the old
-- client's random four digits collide after about a hundred reservations).
CREATE SEQUENCE reservation_number_seq START WITH 100001;

CREATE TABLE reservations (
  id text PRIMARY KEY DEFAULT ('RES-' || nextval('reservation_number_seq')::text),
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  -- The pickup day in the library's time zone, and the slot's label and start instant.
  pickup_date date NOT NULL,
  time_slot text NOT NULL,
  slot_starts_at timestamptz NOT NULL,
  -- The hold ends 24 hours after the slot begins.
  expires_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'active'
    CHECK (status IN ('active', 'collected', 'returned', 'cancelled', 'expired', 'no_show')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (expires_at > slot_starts_at)
);
-- Never two active reservations of one book by one person.
CREATE UNIQUE INDEX reservations_one_active_per_book_idx ON reservations (user_id, item_id)
  WHERE status = 'active';
-- Copies held per book (active holds and copies out on loan).
CREATE INDEX reservations_holding_idx ON reservations (item_id)
  WHERE status IN ('active', 'collected');
CREATE INDEX reservations_user_idx ON reservations (user_id, created_at DESC);
CREATE INDEX reservations_pickup_idx ON reservations (pickup_date, time_slot);
CREATE INDEX reservations_expiry_idx ON reservations (expires_at) WHERE status = 'active';

-- Answers kept for `Idempotency-Key` retries: the first answer is replayed for 24 hours.
CREATE TABLE idempotency_keys (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  -- Method and path plus a hash of the body: the same key with another body is refused.
  request_hash text NOT NULL,
  status_code integer NOT NULL,
  -- The body as it was sent (text, not jsonb, so a replay is byte for byte the same).
  response text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- Demo books seeded before this migration get the copies the reservation screen shows (a fresh
-- database gets them from the seed itself); one has its only copy out on loan.
UPDATE items SET copies = 3 WHERE source = 'demo' AND source_id = 'book-pride-and-prejudice';
UPDATE items SET copies = 2 WHERE source = 'demo' AND source_id = 'book-frankenstein';
UPDATE items SET copies = 2 WHERE source = 'demo' AND source_id = 'book-the-time-machine';
UPDATE items SET copies = 1 WHERE source = 'demo' AND source_id = 'book-alice-in-wonderland';
UPDATE items SET copies = 1, copies_unavailable = 1
  WHERE source = 'demo' AND source_id = 'book-a-christmas-carol';
