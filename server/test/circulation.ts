import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Forgets every reservation, waiting list, loan and desk record, and puts the copies that were
 * out on loan back on the shelf: a clean desk for the next test. Copies marked on loan by an
 * import (no loan row) stay as they are.
 */
export async function clearCirculation(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('copies')
    .set({ status: 'available' })
    .where((eb) =>
      eb('id', 'in', eb.selectFrom('loans').select('copy_id').where('returned_at', 'is', null)),
    )
    .execute();
  await db.deleteFrom('circulation_events').execute();
  await db.deleteFrom('loans').execute();
  await db.deleteFrom('queued_holds').execute();
  await db.deleteFrom('reservations').execute();
}
