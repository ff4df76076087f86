import {
  myRequestsResponseSchema,
  requestListQuerySchema,
  requestListResponseSchema,
  requestRecordResponseSchema,
  requestStatusChangeSchema,
  resourceRequestResponseSchema,
  resourceRequestSchema,
  similarRequestsQuerySchema,
  similarRequestsResponseSchema,
} from '#contract/http/requests.ts';
import { parseInput } from '../../http/errors.ts';
import { enforceRateLimits } from '../../http/rate-limit.ts';
import { NOTICES_JOB } from '../../notices/job.ts';
import { presentRequest } from '../../presenters/requests.ts';
import { announceUnread } from '../../realtime/notices.ts';
import {
  changeRequestStatus,
  fileRequest,
  listRequests,
  ownRequests,
  similarRequests,
  supportRequest,
} from '../../requests/store.ts';
import type { RouteContext } from '../context.ts';
import {
  declareRoute,
  uuidParams,
  signedInCaller,
  type DeclaringInstance,
} from '../declare-route.ts';

/** Requests one person may file in an hour. */
const FILE_RATE = { limit: 30, windowSeconds: 3600 };

/**
 * Resource requests (purchase suggestions, after Koha's): anyone signed in files one or adds
 * their support to an open one; faculty and librarians review them through pending, accepted,
 * ordered and available, or reject them with a reason; each person sees their own.
 */
export async function requestRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  app.post(
    '/users/requests',
    declareRoute({
      tag: 'requests',
      summary: 'Ask the library to acquire a resource',
      description: 'The requester is the caller, whatever `student` says.',
      access: 'signed-in',
      body: resourceRequestSchema,
      response: resourceRequestResponseSchema,
      verifiedEmail: true,
      rateLimited: true,
      errors: { 409: 'The caller already holds the most open requests one person may.' },
    }),
    async (request) => {
      const user = signedInCaller(request);
      await enforceRateLimits(db, [{ key: `request:user:${user.id}`, ...FILE_RATE }]);
      const body = parseInput(resourceRequestSchema, request.body);
      const row = await fileRequest(db, user.id, body);
      return { success: true as const, request: presentRequest(row, user.id) };
    },
  );

  app.get(
    '/users/requests',
    declareRoute({
      tag: 'requests',
      summary: "The caller's own resource requests",
      access: 'signed-in',
      response: myRequestsResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const rows = await ownRequests(db, user.id);
      return { payload: rows.map((row) => presentRequest(row, user.id)) };
    },
  );

  app.get(
    '/users/requests/similar',
    declareRoute({
      tag: 'requests',
      summary: 'Open requests with similar titles',
      access: 'signed-in',
      query: similarRequestsQuerySchema,
      response: similarRequestsResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { title } = parseInput(similarRequestsQuerySchema, request.query);
      const rows = await similarRequests(db, user.id, title);
      return { payload: rows.map((row) => presentRequest(row, user.id)) };
    },
  );

  app.post(
    '/users/requests/:id/support',
    declareRoute({
      tag: 'requests',
      summary: "Add one's +1 to an open request",
      description: 'Idempotent: a second +1 from the same person changes nothing.',
      access: 'signed-in',
      params: uuidParams('request'),
      response: requestRecordResponseSchema,
      errors: { 409: 'The request is no longer open.' },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const row = await supportRequest(db, request.params.id, user.id);
      return { success: true as const, request: presentRequest(row, user.id) };
    },
  );

  app.get(
    '/faculty/get-req',
    declareRoute({
      tag: 'requests',
      summary: 'Every resource request, filtered and sorted',
      access: ['faculty', 'librarian'],
      query: requestListQuerySchema,
      response: requestListResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const query = parseInput(requestListQuerySchema, request.query);
      const data = await listRequests(db, user.id, query);
      return { data: data.map((row) => presentRequest(row, user.id)) };
    },
  );

  app.patch(
    '/faculty/requests/:id',
    declareRoute({
      tag: 'requests',
      summary: 'Move a request on, or reject it with a reason',
      access: ['faculty', 'librarian'],
      params: uuidParams('request'),
      body: requestStatusChangeSchema,
      response: requestRecordResponseSchema,
      errors: { 409: 'The request cannot move to that status from where it is.' },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const change = parseInput(requestStatusChangeSchema, request.body);
      const row = await changeRequestStatus(db, request.params.id, user.id, change, context.now());
      // The requester's notice is stored with the move: their bell now, the e-mail by the queue.
      // Either failing leaves the move done; the minute's notices run sends the e-mail anyway.
      await announceUnread(request.server.io, db, [row.requester_id]).catch((error: unknown) =>
        request.log.warn({ err: error }, 'the bell could not be updated'),
      );
      await context.jobs
        .send(NOTICES_JOB, {})
        .catch((error: unknown) =>
          request.log.warn({ err: error }, 'the notice e-mail waits for the next run'),
        );
      return { success: true as const, request: presentRequest(row, user.id) };
    },
  );
}
