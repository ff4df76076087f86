-- The holds queue (issue 21, decision 029): a waiting list per book for when no copy is free.
--
-- A hold is queued, then offered a freed copy (48 hours to pick a pickup slot), then fulfilled by
-- the reservation made from the offer, or cancelled by its holder, or expired when the offer
-- lapsed. Offers are written inside the transaction that frees the copy, under the lock of the
-- book's items row that every reservation takes (`offerFreedCopies` in
-- server/reservations/queue.ts), so a copy is never offered twice and nobody jumps the queue.

-- The queue's order: numbers from a sequence, taken while the book's row is locked.
CREATE SEQUENCE queued_hold_number_seq START WITH 100001;

CREATE TABLE queued_holds (
  number bigint NOT NULL UNIQUE DEFAULT nextval('queued_hold_number_seq'),
  id text GENERATED ALWAYS AS ('HOLD-' || number::text) STORED PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'offered', 'fulfilled', 'cancelled', 'expired')),
  offered_at timestamptz,
  -- The end of the offer: 48 hours after it was made. Past it, the offer reads as expired.
  offer_expires_at timestamptz,
  -- The reservation made from the offer.
  reservation_id text REFERENCES reservations (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT queued_holds_offer_has_end
    CHECK (status NOT IN ('offered', 'fulfilled') OR offer_expires_at IS NOT NULL)
);
-- Never two open holds of one book by one person.
CREATE UNIQUE INDEX queued_holds_one_open_per_book_idx ON queued_holds (user_id, item_id)
  WHERE status IN ('queued', 'offered');
-- A book's queue in order, and its offers.
CREATE INDEX queued_holds_queue_idx ON queued_holds (item_id, number)
  WHERE status IN ('queued', 'offered');
CREATE INDEX queued_holds_user_idx ON queued_holds (user_id, created_at DESC);
CREATE INDEX queued_holds_offer_expiry_idx ON queued_holds (offer_expires_at)
  WHERE status = 'offered';
