import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { ErrorResponse, FieldError } from '../../contract/http/errors.ts';

/** An error a request handler throws on purpose: its status and message reach the client as-is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * Validates untrusted input with a contract schema. A failure becomes a 400 that names each bad
 * field, so the form that sent it can show the message next to the field.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new HttpError(
    400,
    'Some fields are missing or invalid.',
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}

/** Builds the one error body every failed call answers with. */
export function errorBody(message: string, errors?: FieldError[]): ErrorResponse {
  return errors && errors.length > 0
    ? { success: false, message, errors }
    : { success: false, message };
}

// Messages for the client errors Fastify raises itself, in words a person understands.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
};

/**
 * Installs the error handler: expected errors keep their status and message; anything else is
 * logged with its stack and answered with a plain 500, so no stack trace leaves the server.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      if ('retryAfterSeconds' in error)
        reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send(errorBody(error.message, error.errors));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = (error.code && FASTIFY_MESSAGES[error.code]) ?? error.message;
      return reply.code(status).send(errorBody(message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
  });
}
