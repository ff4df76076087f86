import { z } from 'zod';
import type { ApiDocument } from '../../contract/http/docs.ts';
import { betterAuthErrorSchema, errorResponseSchema } from '../../contract/http/errors.ts';
import type { ApiOperation } from '../routes/docs/operations.ts';

/** A JSON Schema as `z.toJSONSchema` writes it. */
type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
};

/** A zod schema as an OpenAPI 3.1 schema (JSON Schema 2020-12, OpenAPI's default dialect). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as JsonSchema;
  return rest;
}

/** `GET /api/items/:id` → `['get', '/api/items/{id}']`. */
export function openApiPath(operation: ApiOperation): [method: string, path: string] {
  const [method, routePath] = operation.route.split(' ') as [string, string];
  return [method.toLowerCase(), (operation.path ?? routePath).replace(/:(\w+)/g, '{$1}')];
}

/** `get /api/users/requests/{id}/support` → `getUsersRequestsByIdSupport`. */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[/-]/)
    .filter(Boolean)
    .map((word) => (word.startsWith('{') ? `by-${word.slice(1, -1)}` : word))
    .flatMap((word) => word.split('-'));
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** One OpenAPI parameter per property of an object schema. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header') {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

const errorContent = {
  'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } },
};
const betterAuthErrorContent = {
  'application/json': { schema: { $ref: '#/components/schemas/BetterAuthError' } },
};

/** The error statuses an operation may answer, each with what it means. */
function errorStatuses(operation: ApiOperation, method: string): Record<number, string[]> {
  const statuses: Record<number, string[]> = {};
  const add = (status: number, text: string) => (statuses[status] ??= []).push(text);
  const reads = operation.params ?? operation.query ?? operation.headers ?? operation.body;
  if (reads) add(400, 'Some fields are missing or invalid: `errors` names each one.');
  if (operation.body) add(400, 'The body is not JSON.');
  if (operation.access !== 'guest') add(401, 'Not signed in.');
  if (operation.access !== 'guest') add(403, 'The profile is not complete yet.');
  if (Array.isArray(operation.access)) add(403, `Only for ${operation.access.join(' and ')}.`);
  if (method !== 'get') add(403, 'Sent from another site (a foreign `Origin`).');
  if (operation.params) add(404, 'Nothing has that id.');
  if (method !== 'get') {
    add(413, 'The body is larger than the server reads.');
    add(415, 'The body is not `application/json`.');
  }
  if (operation.rateLimited) add(429, 'Too many attempts: see `Retry-After`.');
  for (const [status, text] of Object.entries(operation.errors ?? {})) add(Number(status), text);
  add(500, 'Something went wrong on the server (logged there; no details are sent).');
  return statuses;
}

/** Who may call an operation, as the document says it. */
function accessOf(operation: ApiOperation) {
  if (operation.access === 'guest') {
    return {
      security: [{}, { session: [] }],
      'x-roles': ['guest', 'student', 'faculty', 'librarian'],
    };
  }
  const roles = operation.access === 'signed-in' ? [] : [...operation.access];
  return {
    security: [{ session: roles }],
    'x-roles': roles.length > 0 ? roles : ['student', 'faculty', 'librarian'],
  };
}

/** One operation object of the document. */
function presentOperation(operation: ApiOperation, method: string, path: string) {
  const body = operation.body;
  const errors = operation.betterAuth ? betterAuthErrorContent : errorContent;
  const responses: Record<string, unknown> = {};
  if (operation.redirect) {
    responses['302'] = {
      description: 'Redirect',
      headers: { location: { schema: { type: 'string' } } },
    };
  } else {
    responses['200'] = {
      description: 'OK',
      content: {
        'application/json': {
          schema: operation.response ? jsonSchema(operation.response, 'output') : {},
        },
      },
    };
  }
  for (const [status, texts] of Object.entries(errorStatuses(operation, method))) {
    responses[status] = {
      description: texts.join(' '),
      ...(status === '429'
        ? { headers: { 'retry-after': { schema: { type: 'integer' }, description: 'Seconds' } } }
        : {}),
      content: errors,
    };
  }
  return {
    operationId: operationId(method, path),
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    ...accessOf(operation),
    parameters: [
      ...parameters(operation.params, 'path'),
      ...parameters(operation.query, 'query'),
      ...parameters(operation.headers, 'header'),
    ],
    ...(body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 description of the API: every operation of `operations` with its parameters,
 * body, answer and errors as JSON Schema converted from the contract's zod schemas.
 */
export function presentApiDocument(
  operations: readonly ApiOperation[],
  options: { serverUrl: string; version: string; sessionCookie: string },
): ApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const [method, path] = openApiPath(operation);
    (paths[path] ??= {})[method] = presentOperation(operation, method, path);
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Digi Library API',
      version: options.version,
      description: [
        'Every failed call answers `ErrorResponse` (better-auth’s own endpoints under `/api/auth/` answer `BetterAuthError`).',
        'A state-changing call from a foreign `Origin` is refused with 403 before any handler runs.',
        '`x-roles` lists who may call each operation (docs/role-matrix.md); the server decides from the session cookie, never from the payload.',
        'better-auth serves everything under `/api/auth/*`; only the endpoints the web app and its mails use are described.',
      ].join('\n\n'),
    },
    servers: [{ url: options.serverUrl }],
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        ErrorResponse: jsonSchema(errorResponseSchema, 'output'),
        BetterAuthError: jsonSchema(betterAuthErrorSchema, 'output'),
      },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: options.sessionCookie,
          description:
            'The session cookie better-auth sets on sign-in and sign-up. A security requirement lists the roles that may call.',
        },
      },
    },
  };
}
