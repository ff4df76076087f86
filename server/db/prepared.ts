import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import type pg from 'pg';

/**
 * Put first in a statement (`sql`${PREPARED} SELECT …``, or a query builder's `modifyFront`) to run it as a prepared statement of its
 * connection: planned once and its plan kept, instead of planned on every run. Planning a large
 * statement is most of its cost when it reads few rows: the ranked search (several CTEs, facets,
 * a dozen ranking terms) took 2 ms to plan and 1 to run on PGlite (decision 035). Only for
 * statements whose text takes a bounded number of shapes (their values are parameters): each
 * shape is kept per connection.
 */
export const PREPARED = sql.raw('/*prepared*/');

/**
 * Whether a statement's text asks to be prepared: the mark first, or right after `select` (where
 * Kysely's `modifyFront` puts it).
 */
export function isPrepared(text: string): boolean {
  return /^\s*(?:select\s+)?\/\*prepared\*\//i.test(text);
}

/** Names already worked out, so a hot statement's text (kilobytes) is not hashed on every run. */
const names = new Map<string, string>();
/** Texts whose names are remembered at most; past it the memory starts again. */
const NAMES_REMEMBERED = 1_000;

/** The name a prepared statement's text is kept under: the same text, the same name. */
export function preparedName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `digi_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    if (names.size >= NAMES_REMEMBERED) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * A value as an SQL literal for `EXECUTE name(…)`, which takes no bind parameters: strings in the
 * escape form (E'…', backslashes and quotes escaped, whatever `standard_conforming_strings`
 * says), arrays as array literals of those, numbers, booleans, dates, null. Undefined for any
 * other value: the statement then runs unprepared.
 */
export function sqlLiteral(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? undefined : quoted(value.toISOString());
  }
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value)) {
    const elements: string[] = [];
    for (const element of value) {
      if (element === null || element === undefined) elements.push('NULL');
      else if (typeof element === 'string') {
        elements.push(`"${element.replace(/[\\"]/g, (char) => `\\${char}`)}"`);
      } else if (typeof element === 'number' && Number.isFinite(element)) {
        elements.push(String(element));
      } else return undefined;
    }
    return quoted(`{${elements.join(',')}}`);
  }
  return undefined;
}

function quoted(text: string): string {
  return `E'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

/** The transaction statements Kysely's PGlite dialect sends, exactly as it writes them. */
const TRANSACTION_CONTROL = new Set(['begin', 'commit', 'rollback']);

/** Most statements one PGlite keeps prepared; the oldest is let go beyond it. */
const PGLITE_PREPARED_LIMIT = 200;

/**
 * Makes `pglite.query` run marked statements (`PREPARED`) prepared: `PREPARE` the first time
 * (kept across transactions: a rollback does not undo it), then `EXECUTE` with the values as
 * literals, as PGlite binds no parameters to `EXECUTE`. Unmarked statements, and marked ones
 * with a value that has no literal form, go through unchanged. The prototype's `query` is looked
 * up on every call, so whatever wraps it (the statement counter of the benches) still sees each.
 */
export function prepareOnPglite(pglite: PGlite): void {
  const prepared = new Map<string, true>();
  const prototype = () =>
    Object.getPrototypeOf(pglite) as {
      query: (this: PGlite, t: string, p?: unknown[], o?: unknown) => Promise<unknown>;
      exec: (this: PGlite, t: string, o?: unknown) => Promise<unknown[]>;
    };
  const original = (text: string, params?: unknown[], options?: unknown) =>
    prototype().query.call(pglite, text, params, options);
  // One statement of our own text with no parameters, as one simple-protocol message: `query`
  // sends five (parse, describe, bind, describe, execute) and a sync, each a call into PGlite,
  // about 40 µs more a statement. Its result is `query`'s, parsed the same way.
  const simple = async (text: string, options?: unknown) =>
    (await prototype().exec.call(pglite, text, options))[0];
  Object.defineProperty(pglite, 'query', {
    configurable: true,
    writable: true,
    value: async (text: string, params?: unknown[], options?: unknown) => {
      if (!isPrepared(text)) {
        return TRANSACTION_CONTROL.has(text) && !params?.length
          ? simple(text, options)
          : original(text, params, options);
      }
      const literals = (params ?? []).map(sqlLiteral);
      if (literals.some((literal) => literal === undefined)) {
        return original(text, params, options);
      }
      const name = preparedName(text);
      if (!prepared.has(name)) {
        await original(`PREPARE ${name} AS ${text}`);
        prepared.set(name, true);
        if (prepared.size > PGLITE_PREPARED_LIMIT) {
          const oldest = prepared.keys().next().value as string;
          prepared.delete(oldest);
          await original(`DEALLOCATE ${oldest}`);
        }
      } else {
        // Most recently used last, so the one let go is the least recently used.
        prepared.delete(name);
        prepared.set(name, true);
      }
      const args = literals.length > 0 ? `(${literals.join(', ')})` : '';
      return simple(`EXECUTE ${name}${args}`, options);
    },
  });
}

/**
 * Makes a node-postgres client run marked statements (`PREPARED`) as named statements, which it
 * prepares once per connection itself; the values stay bind parameters.
 */
export function prepareOnPgClient(client: pg.PoolClient): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  Object.defineProperty(client, 'query', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text === 'string' && isPrepared(text) && args.length <= 2) {
        return original({ name: preparedName(text), text, values });
      }
      return original(...args);
    },
  });
}
