import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ErrorResponse, FieldError } from '#contract/http/errors.ts';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from '../db/unavailable.ts';
import { Refusal } from '../refusal.ts';

/**
 * Validates untrusted input with a contract schema. A failure becomes a 400 that names each bad
 * field, so the form that sent it can show the message next to the field. Text the database
 * cannot store (U+0000, a lone surrogate) is such a failure too, whatever the schema says.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) {
    const bad = unstorableText(result.data);
    if (bad === undefined) return result.data;
    throw new Refusal(400, 'Some fields are missing or invalid.', [bad]);
  }
  throw new Refusal(
    400,
    'Some fields are missing or invalid.',
    result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}

/** What no text column can store: U+0000, and a lone surrogate (ill-formed UTF-16). */
function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'Text cannot contain the NUL character (U+0000).';
  // With the u flag a surrogate pair is one code point, so only a lone surrogate matches.
  if (/[\uD800-\uDFFF]/u.test(text))
    return 'Text must be valid Unicode (it holds a lone surrogate).';
  return undefined;
}

/**
 * The first string (or key) that the database cannot store, with why: PostgreSQL text refuses
 * U+0000, and PGlite fails on some lone surrogates, each a 500 if it reached a query. Walked
 * without recursion, as a body may nest deeply.
 */
export function unstorableText(value: unknown): FieldError | undefined {
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      const message = unstorable(item);
      if (message) return { path, message };
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const childPath = path === '' ? key : `${path}.${key}`;
        const message = unstorable(key);
        if (message) return { path: childPath, message };
        pending.push([child, childPath]);
      }
    }
  }
  return undefined;
}

/** Builds the one error body every failed call answers with. */
export function errorBody(message: string, errors?: FieldError[], code?: string): ErrorResponse {
  return {
    success: false,
    message,
    ...(errors && errors.length > 0 ? { errors } : {}),
    ...(code ? { code } : {}),
  };
}

// Messages for the client errors Fastify raises itself, in words a person understands.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_BAD_URL: 'The address is not valid: it has a broken %-escape.',
  FST_ERR_MAX_PARAM_LENGTH: 'A part of the address is too long.',
};

/**
 * Fastify's `frameworkErrors` option: what its router refuses before any route or error handler
 * runs (a broken %-escape in the path, an overlong path parameter), in the one error shape.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return reply.code(status).send(errorBody(FASTIFY_MESSAGES[error.code] ?? error.message));
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
}

/**
 * Installs the error handler: expected errors keep their status and message; a database that
 * cannot be reached is a 503 that says so (the call will work again once it is back); anything
 * else is logged with its stack and answered with a plain 500, so no stack trace leaves the server.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Refusal, request, reply) => {
    if (error instanceof Refusal) {
      if ('retryAfterSeconds' in error)
        reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.statusCode).send(errorBody(error.message, error.errors, error.code));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = (error.code && FASTIFY_MESSAGES[error.code]) ?? error.message;
      return reply.code(status).send(errorBody(message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'request failed: the database is unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply.code(503).send(errorBody(DATABASE_UNAVAILABLE_MESSAGE));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
  });
}
