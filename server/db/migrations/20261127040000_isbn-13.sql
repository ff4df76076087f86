-- ISBN-10 and ISBN-13 are one book (issue 20): items keep the ISBN-13 alone, 13 digits, as
-- server/catalogue/isbn.ts makes it from either form, so one unique index finds a book whichever
-- form an import, an edit or a search gives. Stored ISBN-10s become their ISBN-13: 978, the first
-- nine digits, and the check digit of those twelve. An ISBN-10 whose own check digit is wrong
-- names no book for certain (the importers now keep such a book without it): it is cleared rather
-- than made into a valid-looking ISBN-13 of perhaps another book. Goodbooks rows, identified by their ISBN,
-- follow it in source_id.
ALTER TABLE items DROP CONSTRAINT items_isbn_check;

UPDATE items SET isbn = NULL
WHERE isbn IS NOT NULL
  AND (
    SELECT sum(CASE WHEN substr(isbn, n, 1) = 'X' THEN 10 ELSE substr(isbn, n, 1)::int END * (11 - n))
    FROM generate_series(1, 10) AS n
  ) % 11 <> 0;

UPDATE items
SET isbn = converted.isbn13,
    source_id = CASE WHEN items.source_id = items.isbn THEN converted.isbn13 ELSE items.source_id END
FROM (
  SELECT id, twelve || ((10 - (
    SELECT sum(substr(twelve, n, 1)::int * CASE WHEN n % 2 = 1 THEN 1 ELSE 3 END)
    FROM generate_series(1, 12) AS n
  ) % 10) % 10)::text AS isbn13
  FROM (SELECT id, '978' || left(isbn, 9) AS twelve FROM items WHERE isbn IS NOT NULL) AS ten
) AS converted
WHERE items.id = converted.id;

ALTER TABLE items ADD CONSTRAINT items_isbn_check CHECK (isbn ~ '^97[89][0-9]{10}$');
