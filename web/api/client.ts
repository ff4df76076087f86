// First: zod must be told before the contract's schemas are built (see zod-setup.ts).
import '../zod-setup.ts';
import type { z } from 'zod';
import { errorResponseSchema, type FieldError } from '#contract/http/errors.ts';

/** A failed API call, carrying the server's own message and field errors when it sent them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    /** True when the server answered with its own message (not a network or parse failure). */
    readonly fromServer = false,
    /** The server's word for why, on the few refusals a screen acts on (`EMAIL_NOT_VERIFIED`). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The ApiError of a refused call: the server's message, field errors and code when its body is
 * the error shape, `fallback` otherwise.
 */
export function refusalFrom(
  status: number,
  body: unknown,
  fallback = 'Something went wrong',
): ApiError {
  const parsed = errorResponseSchema.safeParse(body);
  return parsed.success
    ? new ApiError(status, parsed.data.message, parsed.data.errors ?? [], true, parsed.data.code)
    : new ApiError(status, fallback);
}

/**
 * Calls `/api{path}` and validates the answer with the contract's schema, so a screen never
 * renders a shape it did not expect. Errors carry the server's message.
 */
export async function apiRequest<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  init: RequestInit = {},
): Promise<z.infer<Schema>> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      credentials: 'same-origin',
      ...init,
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
    });
  } catch {
    throw new ApiError(0, 'Could not reach the server. Check your connection and try again.');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw refusalFrom(response.status, body);
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiError(response.status, 'The server sent an answer this page does not understand.');
  return parsed.data;
}

/**
 * Sends `body` as JSON to `/api{path}` (POST unless `init` says otherwise) and validates the
 * answer. `init` carries extra headers, such as an `Idempotency-Key`.
 */
export function apiPost<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  body: unknown,
  init: Pick<RequestInit, 'method' | 'headers'> = {},
): Promise<z.infer<Schema>> {
  return apiRequest(path, schema, { method: 'POST', ...init, body: JSON.stringify(body) });
}
