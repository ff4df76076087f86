import { z } from 'zod';
import {
  getBooksResponseSchema,
  itemDetailSchema,
  itemPageQuerySchema,
  itemPageSchema,
  postBookRequestSchema,
  postBookResponseSchema,
  searchQuerySchema,
  searchResponseSchema,
} from '../../../contract/http/catalogue.ts';
import { chatbotRequestSchema, chatbotResponseSchema } from '../../../contract/http/chatbot.ts';
import { apiDocumentSchema } from '../../../contract/http/docs.ts';
import { healthResponseSchema } from '../../../contract/http/health.ts';
import { libraryInfoSchema } from '../../../contract/http/library.ts';
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
} from '../../../contract/http/requests.ts';
import {
  deskPickupsQuerySchema,
  deskPickupsResponseSchema,
  deskReservationResponseSchema,
  deskStatusChangeSchema,
  myReservationsResponseSchema,
  reservationBooksResponseSchema,
  reservationDaysResponseSchema,
  reservationRequestSchema,
  reservationResponseSchema,
} from '../../../contract/http/reservations.ts';
import {
  checkUserRequestSchema,
  checkUserResponseSchema,
  forgotPasswordRequestSchema,
  forgotPasswordResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
  providerRedirectSchema,
  providerSignInRequestSchema,
  providersResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  resetPasswordRequestSchema,
  resetPasswordResponseSchema,
  signinRequestSchema,
  signinResponseSchema,
  type Role,
} from '../../../contract/http/users.ts';
import {
  chatUsernameResponseSchema,
  chatUsernameSchema,
  moderationWordsResponseSchema,
} from '../../../contract/socket/chat.ts';

/** Who may call an operation: anyone, anyone signed in (with a complete profile), or these roles. */
export type Access = 'guest' | 'signed-in' | readonly Role[];

/** One operation of the HTTP API: what it takes, what it answers and who may call it. */
export interface ApiOperation {
  /** The Fastify route that serves it, as `app.apiRoutes` lists it: `POST /api/users/requests/:id/support`. */
  route: string;
  /** The OpenAPI path when it is not the route's own (better-auth's endpoints under `/api/auth/*`). */
  path?: string;
  /** Groups the operations in the document (one per resource). */
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodType;
  headers?: z.ZodObject;
  /** The JSON body, for calls that read one. */
  body?: z.ZodType;
  /** The 200 answer's body. */
  response?: z.ZodType;
  /** Answers 3xx instead of 200 (a browser navigation). */
  redirect?: true;
  /** Counted against a rate limit: 429 with Retry-After beyond it. */
  rateLimited?: true;
  /** Error statuses the route answers beyond those every call of its kind may get. */
  errors?: Record<number, string>;
  /** Served by better-auth: its answers and errors are better-auth's own shape. */
  betterAuth?: true;
}

/** A catalogue item's or a resource request's id. */
const uuidParams = (what: string) =>
  z.object({ id: z.uuid().describe(`The ${what}'s id (a UUID); any other text is a 404.`) });

/** A reservation's id, as `reservationId` shows it. */
const reservationParams = z.object({
  id: z
    .string()
    .regex(/^RES-\d+$/)
    .describe('The reservation id, `RES-` and digits; any other text is a 404.'),
});

const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{8,255}$/)
    .optional()
    .describe(
      'Retries with the same key and body get the first answer back; another body with the key is a 422.',
    ),
});

/**
 * Every `/api` operation, in the order of docs/role-matrix.md. `GET /api/docs` is built from this
 * table, and `docs.test.ts` fails when the server registers a route it does not list.
 */
export const API_OPERATIONS: readonly ApiOperation[] = [
  {
    route: 'GET /api/health',
    tag: 'service',
    summary: 'Health check',
    description: 'Answers once the database has answered.',
    access: 'guest',
    response: healthResponseSchema,
    errors: { 503: 'The database is not answering.' },
  },
  {
    route: 'GET /api/library',
    tag: 'service',
    summary: "The library's public identity",
    access: 'guest',
    response: libraryInfoSchema,
  },
  {
    route: 'GET /api/docs',
    tag: 'service',
    summary: 'This OpenAPI description',
    access: 'guest',
    response: apiDocumentSchema,
  },
  {
    route: 'GET /api/users/me',
    tag: 'users',
    summary: 'Who is signed in',
    description: '`{ user: null }` for a guest.',
    access: 'guest',
    response: meResponseSchema,
  },
  {
    route: 'GET /api/users/providers',
    tag: 'users',
    summary: 'Which external sign-in buttons work',
    access: 'guest',
    response: providersResponseSchema,
  },
  {
    route: 'POST /api/users/check-user',
    tag: 'users',
    summary: 'Whether an account with a complete profile exists',
    access: 'guest',
    body: checkUserRequestSchema,
    response: checkUserResponseSchema,
    rateLimited: true,
  },
  {
    route: 'POST /api/users/register',
    tag: 'users',
    summary: 'Create an account (form) or complete a provider sign-in',
    description:
      'A form sign-up signs the caller in as the new account. A provider sign-up completes the profile of the identity that is signed in.',
    access: 'guest',
    body: registerRequestSchema,
    response: registerResponseSchema,
    rateLimited: true,
    errors: { 401: 'A provider sign-up without a provider session.' },
  },
  {
    route: 'POST /api/users/login',
    tag: 'users',
    summary: 'Sign in with e-mail and password',
    access: 'guest',
    body: loginRequestSchema,
    response: loginResponseSchema,
    rateLimited: true,
    errors: { 401: 'Invalid credentials (the same answer for an unknown e-mail).' },
  },
  {
    route: 'POST /api/users/signin',
    tag: 'users',
    summary: "The signed-in user's own summary",
    description: "One's own e-mail only; anyone else's is 403.",
    access: 'signed-in',
    body: signinRequestSchema,
    response: signinResponseSchema,
  },
  {
    route: 'POST /api/users/logout',
    tag: 'users',
    summary: "End this browser's session and its sockets",
    access: 'guest',
    response: logoutResponseSchema,
  },
  {
    route: 'POST /api/users/forgot-password',
    tag: 'users',
    summary: 'Mail a password reset link',
    description: 'The same answer whether the account exists.',
    access: 'guest',
    body: forgotPasswordRequestSchema,
    response: forgotPasswordResponseSchema,
    rateLimited: true,
  },
  {
    route: 'POST /api/users/reset-password',
    tag: 'users',
    summary: 'Set a new password with a mailed token',
    description: 'Ends every session of the account.',
    access: 'guest',
    body: resetPasswordRequestSchema,
    response: resetPasswordResponseSchema,
    rateLimited: true,
  },
  {
    route: 'GET /api/search',
    tag: 'catalogue',
    summary: 'Search the catalogue',
    description: '400 with no query and no filter, unless `featured` is true.',
    access: 'guest',
    query: searchQuerySchema,
    response: searchResponseSchema,
  },
  {
    route: 'GET /api/items/:id',
    tag: 'catalogue',
    summary: "An item's details",
    access: 'guest',
    params: uuidParams('item'),
    response: itemDetailSchema,
  },
  {
    route: 'GET /api/items/:id/pages',
    tag: 'catalogue',
    summary: 'One page of a held text',
    access: 'signed-in',
    params: uuidParams('item'),
    query: itemPageQuerySchema,
    response: itemPageSchema,
  },
  {
    route: 'GET /api/users/get-books',
    tag: 'catalogue',
    summary: 'Course materials, newest first',
    access: 'signed-in',
    response: getBooksResponseSchema,
  },
  {
    route: 'POST /api/faculty/post-book',
    tag: 'catalogue',
    summary: 'Publish a course material',
    access: ['faculty', 'librarian'],
    body: postBookRequestSchema,
    response: postBookResponseSchema,
  },
  {
    route: 'GET /api/users/requests',
    tag: 'requests',
    summary: "The caller's own resource requests",
    access: 'signed-in',
    response: myRequestsResponseSchema,
  },
  {
    route: 'POST /api/users/requests',
    tag: 'requests',
    summary: 'Ask the library to acquire a resource',
    description: 'The requester is the caller, whatever `student` says.',
    access: 'signed-in',
    body: resourceRequestSchema,
    response: resourceRequestResponseSchema,
    rateLimited: true,
    errors: { 409: 'The caller already holds the most open requests one person may.' },
  },
  {
    route: 'GET /api/users/requests/similar',
    tag: 'requests',
    summary: 'Open requests with similar titles',
    access: 'signed-in',
    query: similarRequestsQuerySchema,
    response: similarRequestsResponseSchema,
  },
  {
    route: 'POST /api/users/requests/:id/support',
    tag: 'requests',
    summary: "Add one's +1 to an open request",
    description: 'Idempotent: a second +1 from the same person changes nothing.',
    access: 'signed-in',
    params: uuidParams('request'),
    response: requestRecordResponseSchema,
    errors: { 409: 'The request is no longer open.' },
  },
  {
    route: 'GET /api/faculty/get-req',
    tag: 'requests',
    summary: 'Every resource request, filtered and sorted',
    access: ['faculty', 'librarian'],
    query: requestListQuerySchema,
    response: requestListResponseSchema,
  },
  {
    route: 'PATCH /api/faculty/requests/:id',
    tag: 'requests',
    summary: 'Move a request on, or reject it with a reason',
    access: ['faculty', 'librarian'],
    params: uuidParams('request'),
    body: requestStatusChangeSchema,
    response: requestRecordResponseSchema,
    errors: { 409: 'The request cannot move to that status from where it is.' },
  },
  {
    route: 'GET /api/users/reservation-books',
    tag: 'reservations',
    summary: 'Books with physical copies, and whether one is free',
    access: 'signed-in',
    response: reservationBooksResponseSchema,
  },
  {
    route: 'GET /api/users/reservation-days',
    tag: 'reservations',
    summary: "The seven days and five slots in the library's time zone",
    access: 'signed-in',
    response: reservationDaysResponseSchema,
  },
  {
    route: 'POST /api/users/reservation',
    tag: 'reservations',
    summary: 'Reserve a copy of a book for a pickup slot',
    description: 'The holder is the caller; the server takes only the book id, date and slot.',
    access: 'signed-in',
    headers: idempotencyHeaders,
    body: reservationRequestSchema,
    response: reservationResponseSchema,
    rateLimited: true,
    errors: {
      404: 'No such reservable book.',
      409: 'No copy is free, or the caller already holds this book or the most reservations.',
      422: 'The Idempotency-Key was used with another body.',
    },
  },
  {
    route: 'GET /api/users/reservations',
    tag: 'reservations',
    summary: "The caller's own reservations",
    access: 'signed-in',
    response: myReservationsResponseSchema,
  },
  {
    route: 'DELETE /api/users/reservations/:id',
    tag: 'reservations',
    summary: "Cancel one's own active reservation",
    description: "Anyone else's is a 404.",
    access: 'signed-in',
    params: reservationParams,
    response: reservationResponseSchema,
    errors: { 409: 'The reservation is no longer active.' },
  },
  {
    route: 'GET /api/desk/pickups',
    tag: 'desk',
    summary: "A day's pickups by slot, and the copies on loan",
    access: ['librarian'],
    query: deskPickupsQuerySchema,
    response: deskPickupsResponseSchema,
  },
  {
    route: 'PATCH /api/desk/reservations/:id',
    tag: 'desk',
    summary: 'Mark a reservation collected, no-show or returned',
    access: ['librarian'],
    params: reservationParams,
    body: deskStatusChangeSchema,
    response: deskReservationResponseSchema,
    errors: { 409: 'The reservation cannot take that status from where it is.' },
  },
  {
    route: 'PUT /api/users/chat-username',
    tag: 'chat',
    summary: "Set the forum's username",
    access: 'signed-in',
    body: chatUsernameSchema,
    response: chatUsernameResponseSchema,
  },
  {
    route: 'GET /api/chat/moderation-words',
    tag: 'chat',
    summary: "The library's extra abuse words",
    access: 'signed-in',
    response: moderationWordsResponseSchema,
  },
  {
    route: 'POST /api/chat',
    tag: 'chatbot',
    summary: 'Ask the Digi Chatbot',
    description: "Answers from the asker's own records only.",
    access: 'guest',
    body: chatbotRequestSchema,
    response: chatbotResponseSchema,
    rateLimited: true,
    errors: {
      413: 'The prompt is longer than the chatbot reads.',
      503: 'The assistant took too long to answer.',
    },
  },
  // better-auth serves everything under /api/auth/*; these are the endpoints the web app and the
  // mails it sends use. The others (sign-in/email, sign-out, list-sessions, ...) are better-auth's
  // documented API and are not described here.
  {
    route: 'GET /api/auth/*',
    path: '/api/auth/get-session',
    tag: 'auth',
    summary: 'The current session (better-auth)',
    description: '`null` for a guest.',
    access: 'guest',
    betterAuth: true,
  },
  {
    route: 'POST /api/auth/*',
    path: '/api/auth/sign-in/social',
    tag: 'auth',
    summary: 'Start a Google or institutional sign-in (better-auth)',
    description: "Answers the provider's URL to send the browser to.",
    access: 'guest',
    body: providerSignInRequestSchema,
    response: providerRedirectSchema,
    betterAuth: true,
  },
  {
    route: 'GET /api/auth/*',
    path: '/api/auth/callback/:provider',
    tag: 'auth',
    summary: "Google's return from sign-in (better-auth)",
    description: 'Redirects to the screen the sign-in asked to come back to.',
    access: 'guest',
    params: z.object({ provider: z.string() }),
    query: z.object({ code: z.string().optional(), state: z.string().optional() }),
    redirect: true,
    betterAuth: true,
  },
  {
    route: 'GET /api/auth/*',
    path: '/api/auth/oauth2/callback/:providerId',
    tag: 'auth',
    summary: "The institutional provider's return from sign-in (better-auth)",
    description: 'Redirects to the screen the sign-in asked to come back to.',
    access: 'guest',
    params: z.object({ providerId: z.string() }),
    query: z.object({ code: z.string().optional(), state: z.string().optional() }),
    redirect: true,
    betterAuth: true,
  },
  {
    route: 'GET /api/auth/*',
    path: '/api/auth/reset-password/:token',
    tag: 'auth',
    summary: 'The link in a password reset mail (better-auth)',
    description: 'Redirects to the reset screen with the token, or with an error.',
    access: 'guest',
    params: z.object({ token: z.string() }),
    query: z.object({ callbackURL: z.string() }),
    redirect: true,
    betterAuth: true,
  },
];
