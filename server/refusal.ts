import type { FieldError } from '#contract/http/errors.ts';

/**
 * The one refusal of the whole server: a request (HTTP or socket) that is refused on purpose, with
 * a message the person reads and a status-like code (400, 401, 403, 404, 409, 413, 422, 429, 503).
 * Domain modules throw it without knowing who asked: the HTTP error handler answers its code and
 * message (`server/http/errors.ts`), the socket wrapper acknowledges its message
 * (`server/realtime/`). `errors` names bad fields, for a form to show beside each; `code` says why
 * in a word a client may act on (`EMAIL_NOT_VERIFIED_CODE` in contract/http/users.ts).
 */
export class Refusal extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    readonly code?: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}
