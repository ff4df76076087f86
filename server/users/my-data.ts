import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ownInsightEvents, type OwnInsightsOptions } from '../insights/my-data.ts';
import { shelfForExport } from '../shelf/store.ts';
import { presentCurrentUser } from '../presenters/user.ts';
import { collectReadingData } from '../reading/store.ts';
import type { UserRow } from './store.ts';

/**
 * Everything the library keeps about one person, for "Download my data" (My account, issue 21):
 * the profile, their reservations, loans, the requests they filed or supported, their
 * waiting-list places, their notices and e-mail choices, the forum messages they sent, their
 * reading (last pages, bookmarks, highlights and notes) and their saved items and reading lists
 * (issue 24), and their own library insights events still kept raw (issue 27). Not their password or sessions (nothing a person
 * could read), and not other people's data. Plain JSON with readable field names and ISO dates.
 */
export async function collectMyData(
  db: Kysely<Database>,
  user: UserRow,
  now: Date,
  insights?: OwnInsightsOptions,
) {
  const [reservations, filed, supported, holds, messages, loans, notices, noticeEmails, shelf] =
    await Promise.all([
      db
        .selectFrom('reservations as r')
        .innerJoin('items as i', 'i.id', 'r.item_id')
        .select([
          'r.id',
          'i.title',
          sql<string>`r.pickup_date::text`.as('pickupDate'),
          'r.time_slot as timeSlot',
          'r.status',
          'r.created_at as createdAt',
        ])
        .where('r.user_id', '=', user.id)
        .orderBy('r.created_at')
        .execute(),
      db
        .selectFrom('resource_requests')
        .select([
          'id',
          'title',
          'description',
          'resource_type as resourceType',
          'institution_name as institutionName',
          'status',
          'status_reason as statusReason',
          'created_at as createdAt',
        ])
        .where('requester_id', '=', user.id)
        .orderBy('created_at')
        .execute(),
      db
        .selectFrom('request_supporters as s')
        .innerJoin('resource_requests as q', 'q.id', 's.request_id')
        .select(['q.id', 'q.title', 's.created_at as supportedAt'])
        .where('s.user_id', '=', user.id)
        .where('q.requester_id', '<>', user.id)
        .orderBy('s.created_at')
        .execute(),
      db
        .selectFrom('queued_holds as h')
        .innerJoin('items as i', 'i.id', 'h.item_id')
        .select(['h.id', 'i.title', 'h.status', 'h.created_at as createdAt'])
        .where('h.user_id', '=', user.id)
        .orderBy('h.created_at')
        .execute(),
      db
        .selectFrom('chat_messages as m')
        .innerJoin('chat_rooms as r', 'r.id', 'm.room_id')
        .select(['r.name as room', 'm.content', 'm.created_at as sentAt'])
        .where('m.sender_id', '=', user.id)
        .where('m.is_system', '=', false)
        .orderBy('m.created_at')
        .execute(),
      db
        .selectFrom('loans as l')
        .innerJoin('items as i', 'i.id', 'l.item_id')
        .innerJoin('copies as c', 'c.id', 'l.copy_id')
        .select([
          'l.id',
          'i.title',
          'c.barcode',
          'l.checked_out_at as checkedOutAt',
          'l.due_at as dueAt',
          'l.renewals',
          'l.returned_at as returnedAt',
        ])
        .where('l.user_id', '=', user.id)
        .orderBy('l.checked_out_at')
        .execute(),
      db
        .selectFrom('notices')
        .select(['kind', 'title', 'body', 'created_at as createdAt', 'read_at as readAt'])
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute(),
      db
        .selectFrom('notice_preferences')
        .select(['kind', 'email'])
        .where('user_id', '=', user.id)
        .execute(),
      shelfForExport(db, user.id),
    ]);
  return {
    exportedAt: now.toISOString(),
    profile: { ...presentCurrentUser(user), createdAt: user.created_at.toISOString() },
    reservations,
    requests: { filed, supported },
    waitingLists: holds,
    loans,
    notices,
    // Only the kinds turned off or on by hand; every other kind comes by e-mail.
    noticeEmailChoices: Object.fromEntries(noticeEmails.map((row) => [row.kind, row.email])),
    forumMessages: messages,
    // Last pages, page display, bookmarks and highlights with their notes (issue 24).
    reading: await collectReadingData(db, user.id),
    // My shelf (issue 24): saved items newest first, and each reading list's items in order.
    savedItems: shelf.savedItems,
    readingLists: shelf.readingLists,
    // Library insights (issue 27): their own raw events of the retention window, when asked.
    ...(insights ? { insights: await ownInsightEvents(db, user.id, now, insights) } : {}),
  };
}
