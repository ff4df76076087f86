-- The copies' counts on `items` (migration 20261127000000_copies.sql) were recounted once per
-- copy row: an import of a book with three copies, or the demo's 167 copies, wrote each book's row
-- once per copy. Recounted once per statement instead, for every item the statement touched,
-- from the rows it changed (transition tables). Still in the changing statement's transaction,
-- so a change to a copy still takes the item row's lock that a reservation of it takes.
DROP TRIGGER copies_counted ON copies;
DROP FUNCTION copies_counted();

CREATE FUNCTION copies_recounted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched uuid[];
BEGIN
  -- Only the transition tables this trigger declares may be read: one set per kind of statement.
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT item_id) INTO touched FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT item_id) INTO touched FROM old_rows;
  ELSE
    SELECT array_agg(item_id) INTO touched
    FROM (SELECT item_id FROM new_rows UNION SELECT item_id FROM old_rows) AS changed;
  END IF;
  IF touched IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE items i SET
    copies = counted.total,
    copies_unavailable = counted.unavailable
  FROM (
    SELECT t.item_id,
           count(c.id) FILTER (WHERE c.status <> 'withdrawn') AS total,
           count(c.id) FILTER (WHERE c.status IN ('on_loan', 'in_repair', 'missing')) AS unavailable
    FROM unnest(touched) AS t (item_id)
    LEFT JOIN copies c ON c.item_id = t.item_id
    GROUP BY t.item_id
  ) AS counted
  WHERE i.id = counted.item_id
    AND (i.copies, i.copies_unavailable) IS DISTINCT FROM (counted.total, counted.unavailable);
  RETURN NULL;
END;
$$;

CREATE TRIGGER copies_inserted AFTER INSERT ON copies
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION copies_recounted();
CREATE TRIGGER copies_updated AFTER UPDATE ON copies
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION copies_recounted();
CREATE TRIGGER copies_deleted AFTER DELETE ON copies
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION copies_recounted();
