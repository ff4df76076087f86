import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** A running count of the statements this process sends to its databases. */
export interface StatementCounter {
  /** Statements sent since `countStatements()` was called. */
  readonly count: number;
  /** Stops counting (the drivers are as they were). */
  stop(): void;
}

/**
 * Counts every statement this process sends to PGlite (`query`, `exec`) or to PostgreSQL (a
 * node-postgres client's `query`), transaction control included: on PGlite each costs a fixed
 * 0.25–0.4 ms of CPU before it does any work, so their number per request is a cost to watch.
 * It wraps the drivers' prototypes, so the server's own code carries nothing for it: tests call
 * it in-process, `bench:api` preloads it into the server (`bench/count-statements.ts`).
 */
export function countStatements(): StatementCounter {
  let count = 0;
  const restore: (() => void)[] = [];
  const wrap = <T extends object>(prototype: T, name: keyof T & string) => {
    const own = Object.prototype.hasOwnProperty.call(prototype, name);
    const original = prototype[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(prototype, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        count += 1;
        return original.apply(this, args);
      },
    });
    restore.push(() => {
      if (own)
        Object.defineProperty(prototype, name, {
          configurable: true,
          writable: true,
          value: original,
        });
      else delete prototype[name];
    });
  };
  wrap(PGlite.prototype, 'query');
  wrap(PGlite.prototype, 'exec');
  wrap(pg.Client.prototype, 'query');
  return {
    get count() {
      return count;
    },
    stop() {
      for (const undo of restore.splice(0).reverse()) undo();
    },
  };
}
