import type { ColumnType, Generated } from 'kysely';

/** A catalogue item: a book, a research paper or a course material. */
export interface ItemsTable {
  id: Generated<string>;
  kind: 'book' | 'paper' | 'course';
  title: string;
  authors: string[];
  year: number | null;
  subjects: ColumnType<string[], string[] | undefined, string[]>;
  description: string | null;
  /** Where the row came from (`demo`, an importer's name); with `source_id` it makes re-imports idempotent. */
  source: string;
  source_id: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Migrations already applied, by file name. */
export interface SchemaMigrationsTable {
  name: string;
  applied_at: ColumnType<Date, Date | string | undefined, never>;
}

/** The database as Kysely sees it. Add a table here when a migration creates one. */
export interface Database {
  items: ItemsTable;
  schema_migrations: SchemaMigrationsTable;
}
