import type { DatabaseHandle } from '../db/client.ts';
import { onAvailabilityChange } from '../reservations/availability.ts';
import { COMMITTED_BETWEEN_PROCESSES, committedIdChunks } from './chat/items.ts';
import { serverSideEmitFromOutside } from './emitter.ts';

/** What {@link forwardImportedAvailability} did, once finished. */
export interface ForwardedAvailability {
  /** Items whose changes reached the database's NOTIFY (whether or not a server listened). */
  items: number;
  /** The first send that failed: the import stands, open pages catch up on their next fetch. */
  failed?: Error;
}

/** Sends an import's committed availability changes to the running servers; see below. */
export interface AvailabilityForwarder {
  /**
   * Sends what is left and waits for every send; never rejects. Call it once the imports are
   * over, before the database handle closes.
   */
  finish(): Promise<ForwardedAvailability>;
}

/**
 * `npm run import` beside running servers (decision 045, "Imports from the command line"): hears
 * the items the import's committed batches touched (`availabilityChanged(db, ids, { committed:
 * true })`, through `onAvailabilityChange`) and hands them to every server process as the
 * in-server path does, `COMMITTED_BETWEEN_PROCESSES` in chunks of one NOTIFY each; each server
 * reads only the items its own sockets watch and tells them. Call it before the import starts:
 * an import gathers its items only where something listens.
 *
 * On PGlite it does nothing: the data folder is one process's alone (decision 017), so no server
 * runs beside the import, and pages read the new counts when a server next starts.
 */
export function forwardImportedAvailability(
  database: Pick<DatabaseHandle, 'db' | 'kind' | 'executeSql'>,
): AvailabilityForwarder {
  if (database.kind !== 'postgres') return { finish: async () => ({ items: 0 }) };
  let pending = new Set<string>();
  let scheduled = false;
  const sends: Promise<void>[] = [];
  const outcome: ForwardedAvailability = { items: 0 };
  const execute = (text: string, values: readonly unknown[]) => database.executeSql(text, values);

  const send = () => {
    scheduled = false;
    const ids = [...pending];
    pending = new Set();
    for (const chunk of committedIdChunks(ids)) {
      sends.push(
        serverSideEmitFromOutside(execute, COMMITTED_BETWEEN_PROCESSES, chunk).then(
          () => {
            outcome.items += chunk.length;
          },
          (error: unknown) => {
            outcome.failed ??= error instanceof Error ? error : new Error(String(error));
          },
        ),
      );
    }
  };

  const stop = onAvailabilityChange(database.db, (itemId, committed) => {
    // Only imports change availability in this process, and they say it once committed; a change
    // still in its transaction would need the server's waiting read, which this process lacks.
    if (!committed) return;
    pending.add(itemId);
    // The ids of one call arrive one by one in the same turn: sent together on the next.
    if (!scheduled) {
      scheduled = true;
      setImmediate(send);
    }
  });

  return {
    async finish() {
      // The import's last call reaches its listeners on a later turn (`availabilityChanged`).
      await new Promise((resolve) => setImmediate(resolve));
      stop();
      send();
      await Promise.all(sends);
      return { ...outcome };
    },
  };
}
