import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  OPEN_REQUEST_STATUSES,
  OPEN_REQUESTS_MAX,
  REQUEST_STATUS_LABELS,
  REQUEST_TRANSITIONS,
  requestListQuerySchema,
  requestStatusChangeSchema,
  resourceRequestSchema,
  similarRequestsQuerySchema,
  type RequestStatus,
} from '../../../contract/http/requests.ts';
import { requireUser } from '../../auth/session.ts';
import { isUuid } from '../../db/ids.ts';
import type { Database } from '../../db/schema.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import { enforceRateLimits } from '../../http/rate-limit.ts';
import { presentRequest } from '../../presenters/requests.ts';
import type { RouteContext } from '../context.ts';

/** Requests one person may file in an hour. */
const FILE_RATE = { limit: 30, windowSeconds: 3600 };

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

/**
 * Resource requests (purchase suggestions, after Koha's): anyone signed in files one or adds
 * their support to an open one; faculty and librarians review them through pending, accepted,
 * ordered and available, or reject them with a reason; each person sees their own.
 */
export async function requestRoutes(app: FastifyInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  const findRequest = async (
    source: Kysely<Database> | Transaction<Database>,
    id: string,
    viewerId: string,
  ) => {
    const row = isUuid(id)
      ? await requestQuery(source, viewerId).where('rr.id', '=', id).executeTakeFirst()
      : undefined;
    if (!row) throw new Refusal(404, 'There is no such resource request.');
    return row;
  };

  app.post('/users/requests', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    await enforceRateLimits(db, [{ key: `request:user:${user.id}`, ...FILE_RATE }]);
    const body = parseInput(resourceRequestSchema, request.body);
    const row = await db.transaction().execute(async (trx) => {
      // The person's row is the lock: parallel submissions are counted one after another.
      await trx.selectFrom('users').select('id').where('id', '=', user.id).forUpdate().execute();
      const { open } = await trx
        .selectFrom('resource_requests')
        .select((eb) => eb.fn.countAll<string>().as('open'))
        .where('requester_id', '=', user.id)
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
          requester_id: user.id,
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
        .values({ request_id: inserted.id, user_id: user.id })
        .execute();
      return findRequest(trx, inserted.id, user.id);
    });
    return { success: true, request: presentRequest(row, user.id) };
  });

  app.get('/users/requests', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    const rows = await requestQuery(db, user.id)
      .where('rr.requester_id', '=', user.id)
      .orderBy('rr.created_at', 'desc')
      .limit(REQUEST_LIST_LIMIT)
      .execute();
    return { payload: rows.map((row) => presentRequest(row, user.id)) };
  });

  app.get('/users/requests/similar', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    const { title } = parseInput(similarRequestsQuerySchema, request.query);
    const needle = title.toLowerCase();
    const contains = `%${needle.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    const rows = await requestQuery(db, user.id)
      .where('rr.status', 'in', OPEN_REQUEST_STATUSES)
      .where(sql<boolean>`(lower(rr.title) % ${needle} OR lower(rr.title) LIKE ${contains})`)
      .orderBy(sql`similarity(lower(rr.title), ${needle})`, 'desc')
      .orderBy('rr.supporters', 'desc')
      .limit(5)
      .execute();
    return { payload: rows.map((row) => presentRequest(row, user.id)) };
  });

  app.post<{ Params: { id: string } }>('/users/requests/:id/support', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    const row = await db.transaction().execute(async (trx) => {
      const current = await findRequest(trx, request.params.id, user.id);
      if (!(OPEN_REQUEST_STATUSES as readonly string[]).includes(current.status)) {
        throw new Refusal(
          409,
          `This request is already ${REQUEST_STATUS_LABELS[current.status].toLowerCase()}; it no longer needs support.`,
        );
      }
      const added = await trx
        .insertInto('request_supporters')
        .values({ request_id: current.id, user_id: user.id })
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
      return findRequest(trx, current.id, user.id);
    });
    return { success: true, request: presentRequest(row, user.id) };
  });

  app.get('/faculty/get-req', async (request, reply) => {
    const user = await requireUser(request, reply, context, ['faculty', 'librarian']);
    const query = parseInput(requestListQuerySchema, request.query);
    let rows = requestQuery(db, user.id);
    if (query.status) rows = rows.where('rr.status', '=', query.status);
    if (query.type) rows = rows.where('rr.resource_type', '=', query.type);
    if (query.sort === 'support') rows = rows.orderBy('rr.supporters', 'desc');
    const data = await rows.orderBy('rr.created_at', 'desc').limit(REQUEST_LIST_LIMIT).execute();
    return { data: data.map((row) => presentRequest(row, user.id)) };
  });

  app.patch<{ Params: { id: string } }>('/faculty/requests/:id', async (request, reply) => {
    const user = await requireUser(request, reply, context, ['faculty', 'librarian']);
    const change = parseInput(requestStatusChangeSchema, request.body);
    const current = await findRequest(db, request.params.id, user.id);
    const from = (Object.keys(REQUEST_TRANSITIONS) as RequestStatus[]).filter((source) =>
      REQUEST_TRANSITIONS[source].includes(change.status),
    );
    const refuse = (status: RequestStatus) =>
      new Refusal(
        409,
        `This request is ${REQUEST_STATUS_LABELS[status].toLowerCase()}; it cannot become ${REQUEST_STATUS_LABELS[change.status].toLowerCase()}.`,
      );
    if (from.length === 0) throw refuse(current.status);
    // The status in the WHERE makes the move atomic: of two reviewers, the second one is told.
    const moved = await db
      .updateTable('resource_requests')
      .set({
        status: change.status,
        status_reason: change.reason ?? null,
        status_changed_at: context.now(),
        status_changed_by: user.id,
        updated_at: context.now(),
      })
      .where('id', '=', current.id)
      .where('status', 'in', from)
      .returning('id')
      .executeTakeFirst();
    const row = await findRequest(db, current.id, user.id);
    if (!moved) throw refuse(row.status);
    return { success: true, request: presentRequest(row, user.id) };
  });
}
