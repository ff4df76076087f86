import { sql, type Kysely, type Transaction } from 'kysely';
import type { z } from 'zod';
import {
  OPEN_REQUEST_STATUSES,
  OPEN_REQUESTS_MAX,
  REQUEST_STATUS_LABELS,
  REQUEST_TRANSITIONS,
  type RequestStatus,
  type RequestStatusChange,
  type requestListQuerySchema,
  type resourceRequestSchema,
} from '#contract/http/requests.ts';
import { ROUTES } from '#contract/routes.ts';
import { isUuid } from '../db/ids.ts';
import type { Database } from '../db/schema.ts';
import { createNotice } from '../notices/store.ts';
import { Refusal } from '../refusal.ts';

/** A new request as `resourceRequestSchema` parses it. */
type NewRequest = z.output<typeof resourceRequestSchema>;

/** The staff table's filters and order as `requestListQuerySchema` parses them. */
type RequestListQuery = z.output<typeof requestListQuerySchema>;

/** Most rows the staff table lists at once. */
export const REQUEST_LIST_LIMIT = 500;

/** Requests with whether `viewerId` filed or supports each; callers add conditions and order. */
function requestQuery(db: Kysely<Database> | Transaction<Database>, viewerId: string) {
  return db
    .selectFrom('resource_requests as rr')
    .selectAll('rr')
    .select(
      sql<boolean>`EXISTS (SELECT 1 FROM request_supporters s WHERE s.request_id = rr.id AND s.user_id = ${viewerId})`.as(
        'supported_by_me',
      ),
    );
}

/** A resource request with whether its viewer filed or supports it, as `requestQuery` reads it. */
export type RequestRow = Awaited<ReturnType<ReturnType<typeof requestQuery>['execute']>>[number];

/** The request with `id` as `viewerId` sees it; 404 when there is none. */
export async function findRequest(
  db: Kysely<Database> | Transaction<Database>,
  id: string,
  viewerId: string,
): Promise<RequestRow> {
  const row = isUuid(id)
    ? await requestQuery(db, viewerId).where('rr.id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw new Refusal(404, 'There is no such resource request.');
  return row;
}

/**
 * Files a request for `userId`, who supports it from the start. At most `OPEN_REQUESTS_MAX` open
 * requests per person: their users row is locked first, so parallel submissions are counted one
 * after another.
 */
export async function fileRequest(
  db: Kysely<Database>,
  userId: string,
  body: NewRequest,
): Promise<RequestRow> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const { open } = await trx
      .selectFrom('resource_requests')
      .select((eb) => eb.fn.countAll<string>().as('open'))
      .where('requester_id', '=', userId)
      .where('status', 'in', OPEN_REQUEST_STATUSES)
      .executeTakeFirstOrThrow();
    if (Number(open) >= OPEN_REQUESTS_MAX) {
      throw new Refusal(
        409,
        `You already have ${OPEN_REQUESTS_MAX} open requests, the most one person may hold. Add your support to an existing request, or wait until one is answered.`,
      );
    }
    const inserted = await trx
      .insertInto('resource_requests')
      .values({
        requester_id: userId,
        requester_name: body.student,
        title: body.title,
        description: body.description ?? null,
        resource_type: body.resourceType,
        institution_name: body.institutionName,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('request_supporters')
      .values({ request_id: inserted.id, user_id: userId })
      .execute();
    return findRequest(trx, inserted.id, userId);
  });
}

/** The requests `userId` filed, newest first. */
export async function ownRequests(db: Kysely<Database>, userId: string): Promise<RequestRow[]> {
  return requestQuery(db, userId)
    .where('rr.requester_id', '=', userId)
    .orderBy('rr.created_at', 'desc')
    .limit(REQUEST_LIST_LIMIT)
    .execute();
}

/** Up to five open requests whose titles resemble or contain `title`, the likeliest first. */
export async function similarRequests(
  db: Kysely<Database>,
  viewerId: string,
  title: string,
): Promise<RequestRow[]> {
  const needle = title.toLowerCase();
  const contains = `%${needle.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return requestQuery(db, viewerId)
    .where('rr.status', 'in', OPEN_REQUEST_STATUSES)
    .where(sql<boolean>`(lower(rr.title) % ${needle} OR lower(rr.title) LIKE ${contains})`)
    .orderBy(sql`similarity(lower(rr.title), ${needle})`, 'desc')
    .orderBy('rr.supporters', 'desc')
    .limit(5)
    .execute();
}

/** Adds `userId`'s support to an open request (once: a second time changes nothing). */
export async function supportRequest(
  db: Kysely<Database>,
  id: string,
  userId: string,
): Promise<RequestRow> {
  return db.transaction().execute(async (trx) => {
    const current = await findRequest(trx, id, userId);
    if (!(OPEN_REQUEST_STATUSES as readonly string[]).includes(current.status)) {
      throw new Refusal(
        409,
        `This request is already ${REQUEST_STATUS_LABELS[current.status].toLowerCase()}; it no longer needs support.`,
      );
    }
    const added = await trx
      .insertInto('request_supporters')
      .values({ request_id: current.id, user_id: userId })
      .onConflict((conflict) => conflict.columns(['request_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (added) {
      await trx
        .updateTable('resource_requests')
        .set((eb) => ({ supporters: eb('supporters', '+', 1) }))
        .where('id', '=', current.id)
        .execute();
    }
    return findRequest(trx, current.id, userId);
  });
}

/** Everyone's requests for the staff table, filtered and sorted as `query` asks. */
export async function listRequests(
  db: Kysely<Database>,
  viewerId: string,
  query: RequestListQuery,
): Promise<RequestRow[]> {
  let rows = requestQuery(db, viewerId);
  if (query.status) rows = rows.where('rr.status', '=', query.status);
  if (query.type) rows = rows.where('rr.resource_type', '=', query.type);
  if (query.sort === 'support') rows = rows.orderBy('rr.supporters', 'desc');
  return rows.orderBy('rr.created_at', 'desc').limit(REQUEST_LIST_LIMIT).execute();
}

/**
 * Moves a request to `change.status` on behalf of reviewer `userId`, when `REQUEST_TRANSITIONS`
 * allows it from its current status; 409 otherwise. Its requester gets a `request_status` notice
 * in the same transaction: the move and the notice happen together or not at all, and a retried
 * move (refused) makes no second notice.
 */
export async function changeRequestStatus(
  db: Kysely<Database>,
  id: string,
  userId: string,
  change: RequestStatusChange,
  now: Date,
): Promise<RequestRow> {
  const current = await findRequest(db, id, userId);
  const from = (Object.keys(REQUEST_TRANSITIONS) as RequestStatus[]).filter((source) =>
    REQUEST_TRANSITIONS[source].includes(change.status),
  );
  const refuse = (status: RequestStatus) =>
    new Refusal(
      409,
      `This request is ${REQUEST_STATUS_LABELS[status].toLowerCase()}; it cannot become ${REQUEST_STATUS_LABELS[change.status].toLowerCase()}.`,
    );
  if (from.length === 0) throw refuse(current.status);
  return db.transaction().execute(async (trx) => {
    // The status in the WHERE makes the move atomic: of two reviewers, the second one is told.
    const moved = await trx
      .updateTable('resource_requests')
      .set({
        status: change.status,
        status_reason: change.reason ?? null,
        status_changed_at: now,
        status_changed_by: userId,
        updated_at: now,
      })
      .where('id', '=', current.id)
      .where('status', 'in', from)
      .returning(['id', 'requester_id', 'title'])
      .executeTakeFirst();
    const row = await findRequest(trx, current.id, userId);
    if (!moved) throw refuse(row.status);
    await createNotice(trx, {
      userId: moved.requester_id,
      kind: 'request_status',
      key: `request-status:${moved.id}:${change.status}`,
      ...requestStatusNotice(moved.title, change),
      link: ROUTES.resourceRequestAlias,
      now,
    });
    return row;
  });
}

/** What a request's requester is told when it moves to `change.status`. */
function requestStatusNotice(
  title: string,
  change: RequestStatusChange,
): { title: string; body: string } {
  const said: Record<RequestStatus, string> = {
    pending: 'is waiting for the library to review it again',
    accepted: 'was accepted: the library means to acquire it',
    ordered: 'has been ordered',
    available: 'is now available in the library',
    rejected: 'was not accepted',
  };
  const reason = change.reason ? ` The library says: “${change.reason}”` : '';
  return {
    title: `Your request “${title}” is ${REQUEST_STATUS_LABELS[change.status].toLowerCase()}`,
    body: `Your resource request “${title}” ${said[change.status]}.${reason}`,
  };
}
