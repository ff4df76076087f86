import type { Kysely, Transaction } from 'kysely';
import { addNumberedCopies } from '../catalogue/copies.ts';
import { refreshSearchWords } from '../catalogue/words.ts';
import { nameSkeleton } from '../chat/names.ts';
import { DEMO_CHAT_ROOMS, DEMO_ITEMS, demoGuidePages, demoHoldings } from './demo-data.ts';
import type { Database } from './schema.ts';

/** The `source` of every demo row, so demo data can be told apart from imports. */
export const DEMO_SOURCE = 'demo';

/**
 * The account that owns the demo chat rooms and sends their messages: a room and a message must
 * name a user. Nobody can sign in to it (decision 015): it has no row in `accounts`, so no
 * password and no provider identity, and its address is at `.invalid`, a domain that never
 * receives mail (RFC 2606), so not even a password reset reaches anyone.
 */
export const DEMO_ACCOUNT = {
  id: 'demo-chat-account',
  name: 'Digi Library demo',
  email: 'demo@digi-library.invalid',
} as const;

/**
 * Inserts the demo data that is missing and leaves everything else alone, so a second start
 * changes nothing and a librarian's edits to demo rows survive restarts. Returns rows inserted
 * (catalogue items, chat rooms and chat messages).
 */
export async function seedDemoData(db: Kysely<Database>, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const items = await seedDemoCatalogue(trx);
    const chat = await seedDemoChat(trx, now);
    return items + chat;
  });
}

async function seedDemoCatalogue(trx: Transaction<Database>): Promise<number> {
  const inserted = await trx
    .insertInto('items')
    .values(DEMO_ITEMS.map(({ holdings: _, ...item }) => ({ ...item, source: DEMO_SOURCE })))
    .onConflict((conflict) => conflict.columns(['source', 'source_id']).doNothing())
    .returning(['id', 'source_id'])
    .execute();
  // Only newly inserted books get the reading guide: a later import of the full text (or a
  // librarian's edit) must never be overwritten by a restart.
  const bySourceId = new Map(DEMO_ITEMS.map((item) => [item.source_id, item]));
  for (const row of inserted) {
    const item = bySourceId.get(row.source_id);
    // Each location's copies: those on the shelf and on loan, then those in repair.
    for (const holding of item ? demoHoldings(item) : []) {
      const inRepair = holding.inRepair ?? 0;
      const location = holding.location ? { location: holding.location } : {};
      await addNumberedCopies(trx, row.id, {
        count: holding.copies - inRepair,
        unavailable: holding.unavailable ?? 0,
        unavailableStatus: 'on_loan',
        ...location,
      });
      await addNumberedCopies(trx, row.id, {
        count: inRepair,
        unavailable: inRepair,
        unavailableStatus: 'in_repair',
        ...location,
      });
    }
    const pages = item ? demoGuidePages(item) : [];
    if (pages.length === 0) continue;
    await trx
      .insertInto('item_pages')
      .values(pages.map((content, index) => ({ item_id: row.id, page_number: index + 1, content })))
      .execute();
    await trx
      .updateTable('items')
      .set({ page_count: pages.length })
      .where('id', '=', row.id)
      .execute();
  }
  if (inserted.length > 0) await refreshSearchWords(trx);
  return inserted.length;
}

/**
 * The demo chat rooms, each at most once in the database's life: its key goes into `demo_seeds`
 * with it and stays there. A room that was deleted (closed by a librarian) or renamed is not
 * inserted again, and a room whose name a person already took is skipped, leaving theirs alone.
 * Two processes seeding one PostgreSQL at once take turns on the key's row.
 */
async function seedDemoChat(trx: Transaction<Database>, now: Date): Promise<number> {
  const claimed = await trx
    .insertInto('demo_seeds')
    .values(DEMO_CHAT_ROOMS.map((room) => ({ key: room.key })))
    .onConflict((conflict) => conflict.column('key').doNothing())
    .returning('key')
    .execute();
  if (claimed.length === 0) return 0;
  // No conflict target: someone may hold the e-mail (it was free to sign up with until now).
  await trx
    .insertInto('users')
    .values({ ...DEMO_ACCOUNT, signup_method: 'command', email_verified: true })
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  const account = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', DEMO_ACCOUNT.id)
    .executeTakeFirst();
  if (!account) return 0;

  let inserted = 0;
  for (const room of DEMO_CHAT_ROOMS.filter(({ key }) => claimed.some((row) => row.key === key))) {
    const started = now.getTime() - room.startedHoursAgo * 3_600_000;
    const created = await trx
      .insertInto('chat_rooms')
      .values({
        name: room.name,
        description: room.description,
        creator_id: DEMO_ACCOUNT.id,
        creator_name: room.creatorName,
        is_demo: true,
        created_at: new Date(started),
        name_skeleton: nameSkeleton(room.name),
      })
      // Skipped when a room has its name, or one that looks the same (either unique index).
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!created) continue;
    await trx
      .insertInto('chat_messages')
      .values(
        room.messages.map((message) => ({
          room_id: created.id,
          sender_id: DEMO_ACCOUNT.id,
          sender_name: message.sender,
          content: message.content,
          created_at: new Date(started + message.minute * 60_000),
        })),
      )
      .execute();
    inserted += 1 + room.messages.length;
  }
  return inserted;
}
