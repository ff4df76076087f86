-- Physical copies as rows of their own (issue 20): a barcode each, where it stands, and its state.
-- `items.copies` and `items.copies_unavailable` stay, but only as counts the copies' trigger keeps
-- in the same transaction as the change: every reader (the reservation list, the chatbot, the
-- never-over-booked check, which locks the item's row) reads them as before, and a change to a
-- copy updates, and so locks, its item's row, so it takes its turn with a reservation of it.
CREATE TABLE copies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  barcode text NOT NULL CHECK (barcode ~ '^[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$'),
  location text NOT NULL DEFAULT '' CHECK (length(location) <= 120),
  status text NOT NULL DEFAULT 'available'
    CHECK (status IN ('available', 'on_loan', 'in_repair', 'missing', 'withdrawn')),
  note text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text REFERENCES users (id) ON DELETE SET NULL
);
-- A scanner reads what is printed; two labels differing only in case are one barcode.
CREATE UNIQUE INDEX copies_barcode_unique ON copies (upper(barcode));
CREATE INDEX copies_item_idx ON copies (item_id);

-- Barcodes for copies the library had before they were rows, and for the demo's.
CREATE SEQUENCE copy_barcode_seq START 1;

CREATE FUNCTION copies_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid;
BEGIN
  FOREACH changed IN ARRAY ARRAY[
    CASE WHEN TG_OP <> 'INSERT' THEN OLD.item_id END,
    CASE WHEN TG_OP <> 'DELETE' THEN NEW.item_id END
  ] LOOP
    CONTINUE WHEN changed IS NULL;
    UPDATE items SET
      copies = (SELECT count(*) FROM copies WHERE item_id = changed AND status <> 'withdrawn'),
      copies_unavailable = (
        SELECT count(*) FROM copies
        WHERE item_id = changed AND status IN ('on_loan', 'in_repair', 'missing')
      )
    WHERE id = changed;
  END LOOP;
  RETURN NULL;
END;
$$;

CREATE TRIGGER copies_counted AFTER INSERT OR UPDATE OR DELETE ON copies
  FOR EACH ROW EXECUTE FUNCTION copies_counted();

-- The counts set by hand before become rows: the lendable ones available, the rest in repair.
INSERT INTO copies (item_id, barcode, status, location)
SELECT i.id,
       'DL' || lpad(nextval('copy_barcode_seq')::text, 7, '0'),
       CASE WHEN n > i.copies - i.copies_unavailable THEN 'in_repair' ELSE 'available' END,
       'Main library'
FROM items i
CROSS JOIN LATERAL generate_series(1, i.copies) AS n
WHERE i.copies > 0
ORDER BY i.title, n;
