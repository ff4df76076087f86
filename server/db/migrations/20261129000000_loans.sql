-- Loans at the desk (issue 21, decision 030): a copy handed over by barcode is a loan with a due
-- date, renewed at most twice, returned by barcode. Every desk action is kept in
-- `circulation_events` with who did it, when, and which copy.
--
-- A loan's copy is `on_loan` (so the copies' trigger counts it unavailable) until it comes back.
-- A reservation collected with a loan counts for nothing more: the copy's status already holds
-- it. Reservations collected before loans existed get a loan here, on a copy of their book left
-- on the shelf, so that from now on every collected reservation has one where a copy allows.

CREATE SEQUENCE loan_number_seq START WITH 100001;

CREATE TABLE loans (
  number bigint NOT NULL UNIQUE DEFAULT nextval('loan_number_seq'),
  id text GENERATED ALWAYS AS ('LOAN-' || number::text) STORED PRIMARY KEY,
  -- Null once the borrower's account is deleted, which is refused while a loan is out
  -- (`loans_open_has_borrower` refuses it in the database too); returned loans stay, anonymous.
  user_id text REFERENCES users (id) ON DELETE SET NULL,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE RESTRICT,
  copy_id uuid NOT NULL REFERENCES copies (id) ON DELETE RESTRICT,
  reservation_id text REFERENCES reservations (id) ON DELETE SET NULL,
  checked_out_at timestamptz NOT NULL,
  checked_out_by text REFERENCES users (id) ON DELETE SET NULL,
  due_at timestamptz NOT NULL,
  renewals integer NOT NULL DEFAULT 0 CHECK (renewals BETWEEN 0 AND 2),
  returned_at timestamptz,
  returned_by text REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT loans_open_has_borrower CHECK (returned_at IS NOT NULL OR user_id IS NOT NULL),
  CONSTRAINT loans_due_after_out CHECK (due_at > checked_out_at)
);
-- One copy is never lent twice at once.
CREATE UNIQUE INDEX loans_one_open_per_copy_idx ON loans (copy_id) WHERE returned_at IS NULL;
-- One reservation makes at most one loan.
CREATE UNIQUE INDEX loans_reservation_idx ON loans (reservation_id) WHERE reservation_id IS NOT NULL;
CREATE INDEX loans_user_idx ON loans (user_id, checked_out_at DESC);
CREATE INDEX loans_open_due_idx ON loans (due_at) WHERE returned_at IS NULL;
CREATE INDEX loans_item_idx ON loans (item_id) WHERE returned_at IS NULL;

CREATE TABLE circulation_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  action text NOT NULL CHECK (action IN ('check_out', 'return', 'renew', 'no_show')),
  -- Who did it: a librarian, or a borrower renewing their own loan. Kept as a name too, so the
  -- record still reads when the account is gone.
  actor_id text REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  borrower_id text REFERENCES users (id) ON DELETE SET NULL,
  borrower_name text NOT NULL,
  item_id uuid REFERENCES items (id) ON DELETE SET NULL,
  title text NOT NULL,
  copy_id uuid REFERENCES copies (id) ON DELETE SET NULL,
  barcode text,
  loan_id text REFERENCES loans (id) ON DELETE SET NULL,
  reservation_id text REFERENCES reservations (id) ON DELETE SET NULL
);
CREATE INDEX circulation_events_at_idx ON circulation_events (at DESC);
CREATE INDEX circulation_events_copy_idx ON circulation_events (copy_id, at DESC);

-- Reservations collected before loans: each gets a loan on a copy of its book still on the shelf,
-- due LOAN_DAYS' default (21 days) after it was collected, or a day from now if that has passed.
DO $$
DECLARE
  r record;
  chosen uuid;
BEGIN
  FOR r IN
    SELECT id, user_id, item_id, updated_at FROM reservations
    WHERE status = 'collected' ORDER BY updated_at, id
  LOOP
    SELECT c.id INTO chosen FROM copies c
    WHERE c.item_id = r.item_id AND c.status = 'available'
    ORDER BY upper(c.barcode) LIMIT 1;
    CONTINUE WHEN chosen IS NULL;
    INSERT INTO loans (user_id, item_id, copy_id, reservation_id, checked_out_at, due_at)
    VALUES (r.user_id, r.item_id, chosen, r.id, r.updated_at,
            greatest(r.updated_at + interval '21 days', now() + interval '1 day'));
    UPDATE copies SET status = 'on_loan', updated_at = now() WHERE id = chosen;
  END LOOP;
END;
$$;
