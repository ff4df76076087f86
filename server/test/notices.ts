import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Marks a person's notices as claimed by a sender `ms` ago, by the database's clock (leases go by
 * it, whatever the app's clock says): a sender that died, or one still sending.
 */
export async function claimNoticesAgo(
  db: Kysely<Database>,
  userId: string,
  ms: number,
): Promise<void> {
  await db
    .updateTable('notices')
    .set({
      email_state: 'sending',
      email_claimed_at: sql<Date>`clock_timestamp() - ${sql.lit(ms)} * interval '1 millisecond'`,
    })
    .where('user_id', '=', userId)
    .execute();
}
