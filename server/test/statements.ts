import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** A running count of the statements this process sends to its databases. */
export interface StatementCounter {
  /** Statements sent since `countStatements()` was called, by anything in the process. */
  readonly count: number;
  /** Stops counting. */
  stop(): void;
}

const counters = new Set<{ count: number }>();
const scope = new AsyncLocalStorage<{ count: number }>();
let installed = false;

/**
 * Wraps the drivers' methods that send statements, once per process: PGlite's `query` and `exec`
 * and a node-postgres client's `query` (transaction control included; PGlite's `sql` calls its
 * `query`). The server's own code carries nothing for it.
 */
function install(): void {
  if (installed) return;
  installed = true;
  const wrap = <T extends object>(prototype: T, name: keyof T & string) => {
    const original = prototype[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(prototype, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        for (const counter of counters) counter.count += 1;
        const within = scope.getStore();
        if (within) within.count += 1;
        return original.apply(this, args);
      },
    });
  };
  wrap(PGlite.prototype, 'query');
  wrap(PGlite.prototype, 'exec');
  wrap(pg.Client.prototype, 'query');
}

/**
 * Counts every statement this process sends to PGlite or PostgreSQL from now on: on PGlite each
 * costs a fixed 0.25–0.4 ms of CPU before it does any work, so their number per request is a cost
 * to watch (decision 019). `bench:api` preloads it into the server (`bench/count-statements.ts`).
 */
export function countStatements(): StatementCounter {
  install();
  const counter = { count: 0 };
  counters.add(counter);
  return {
    get count() {
      return counter.count;
    },
    stop: () => counters.delete(counter),
  };
}

/**
 * Runs `fn` and counts the statements it sends, and only those: not a timer's that runs
 * meanwhile (the sweeper's), so a test can expect an exact number.
 */
export async function statementsOf<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: number }> {
  install();
  const within = { count: 0 };
  const result = await scope.run(within, fn);
  return { result, statements: within.count };
}
