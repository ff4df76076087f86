-- The course list is answered from memory until the catalogue changes (decision 019). Every
-- statement that changes items, whoever runs it (a publish, the importer, the seed, an edit by
-- hand), bumps the items' version in its own transaction and notifies 'items_changed': a process
-- on PostgreSQL reads the version (one cheap statement) to know whether its copy is current;
-- on PGlite, where the one process that opened the data makes every change, the notification
-- reaches it before the statement that committed returns.
CREATE TABLE data_versions (
  name text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO data_versions (name) VALUES ('items');

CREATE FUNCTION items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE name = 'items';
  PERFORM pg_notify('items_changed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER items_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION items_changed();
