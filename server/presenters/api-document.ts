import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDocument } from '#contract/http/docs.ts';
import { betterAuthErrorSchema, errorResponseSchema } from '#contract/http/errors.ts';
import {
  errorStatuses,
  type Access,
  type DeclaredRoute,
  type OperationShape,
} from '../routes/declare-route.ts';

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

/** `/api/items/:id` → `/api/items/{id}`. */
function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

/** `get /api/users/requests/{id}/support` → `getUsersRequestsByIdSupport`. */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[/.-]/)
    .filter(Boolean)
    .map((word) => (word.startsWith('{') ? `by-${word.slice(1, -1)}` : word))
    .flatMap((word) => word.split('-'));
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** One operation of the document, and the registered route that serves it. */
export interface DocumentedOperation {
  /** The route as `app.apiRoutes` and docs/role-matrix.md spell it: `GET /api/auth/*`. */
  route: string;
  /** Lower case, as the document's keys: `get`. */
  method: string;
  /** As the document's keys: `/api/items/{id}`. */
  path: string;
  tag: string;
  access: Access;
  operation: OperationShape;
  /** Served by better-auth (its errors are its own shape). */
  betterAuth: boolean;
}

/**
 * Every operation the document describes, from the routes' declarations: a route is one
 * operation, except better-auth's wildcard, which is each of the endpoints it declares.
 */
export function documentedOperations(routes: readonly DeclaredRoute[]): DocumentedOperation[] {
  return routes.flatMap(({ route, method, url, declaration }) => {
    const { tag, access, betterAuth } = declaration;
    const operations = betterAuth
      ? betterAuth.filter((endpoint) => endpoint.method === method)
      : [{ ...declaration, path: url }];
    return operations.map((operation) => ({
      route,
      method: method.toLowerCase(),
      path: openApiPath(operation.path),
      tag,
      access,
      operation,
      betterAuth: betterAuth !== undefined,
    }));
  });
}

/** Who may call an operation, as the document says it. */
function accessOf(access: Access) {
  if (access === 'guest') {
    return {
      security: [{}, { session: [] }],
      'x-roles': ['guest', 'student', 'faculty', 'librarian'],
    };
  }
  const roles = typeof access === 'string' ? [] : [...access];
  return {
    security: [{ session: roles }],
    'x-roles': roles.length > 0 ? roles : ['student', 'faculty', 'librarian'],
  };
}

const RETRY_AFTER = { 'retry-after': { type: 'integer', description: 'Seconds' } };

/**
 * One declared route as @fastify/swagger documents it: its contract schemas converted by
 * fastify-type-provider-zod, its error answers (declared on the route, see `declareRoute`) with
 * their meanings, who may call it and an operation id. Routes without a declaration (the web app's
 * files, the reference page's) and better-auth's wildcard (`presentApiDocument` adds its
 * endpoints) are left out.
 */
const presentOperation = (() => {
  const convert = createJsonSchemaTransform({ skipList: [] });
  const transform: SwaggerTransform = (document) => {
    const { route, url } = document;
    const declaration = route.config?.declaration;
    if (!declaration || declaration.betterAuth) return { schema: { hide: true }, url };
    const { schema } = convert(document);
    const method = [route.method].flat()[0]!.toLowerCase();
    const response = { ...(schema.response as Record<string, Record<string, unknown>>) };
    if (response['200']) response['200'] = { ...response['200'], 'x-response-description': 'OK' };
    if (response['201']) {
      response['201'] = { ...response['201'], 'x-response-description': 'Created' };
    }
    if (declaration.download) {
      response['200'] = {
        description: declaration.download.description,
        content: { [declaration.download.contentType]: { schema: { type: 'string' } } },
      };
    }
    // The body of an upload is the file itself: @fastify/swagger documents `consumes` as the
    // request body's media type.
    const upload = declaration.upload
      ? {
          body: {
            type: 'string',
            format: 'binary',
            description: declaration.upload.description,
          },
          consumes: [declaration.upload.contentType],
        }
      : {};
    if (declaration.redirect) {
      response['302'] = {
        type: 'null',
        description: declaration.redirect,
        headers: { location: { type: 'string' } },
      };
    }
    if (response['429']) response['429'] = { ...response['429'], headers: RETRY_AFTER };
    return {
      schema: {
        ...schema,
        ...upload,
        operationId: operationId(method, openApiPath(url)),
        ...accessOf(declaration.access),
        response,
      } as FastifySchema,
      url,
    };
  };
  return transform;
})();

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

/** One of better-auth's endpoints as an operation: its answers and errors are better-auth's. */
function presentBetterAuthOperation({ method, path, tag, access, operation }: DocumentedOperation) {
  const responses: Record<string, unknown> = {};
  if (operation.response || !operation.redirect) {
    responses['200'] = {
      description: 'OK',
      content: {
        'application/json': {
          schema: operation.response ? jsonSchema(operation.response, 'output') : {},
        },
      },
    };
  }
  if (operation.redirect) {
    responses['302'] = {
      description: operation.redirect,
      headers: { location: { schema: { type: 'string' } } },
    };
  }
  for (const [status, texts] of Object.entries(errorStatuses(operation, access, method))) {
    responses[status] = {
      description: texts.join(' '),
      ...(status === '429'
        ? { headers: { 'retry-after': { schema: { type: 'integer' }, description: 'Seconds' } } }
        : {}),
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/BetterAuthError' } },
      },
    };
  }
  const inputs = [
    ...parameters(operation.params, 'path'),
    ...parameters(operation.query, 'query'),
    ...parameters(operation.headers, 'header'),
  ];
  return {
    operationId: operationId(method, path),
    tags: [tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    ...accessOf(access),
    ...(inputs.length > 0 ? { parameters: inputs } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

/** What the document says about the server it describes. */
export interface ApiDocumentOptions {
  serverUrl: string;
  version: string;
  sessionCookie: string;
}

const PARAMETER_ORDER: Record<string, number> = { path: 0, query: 1, header: 2 };

/** The session cookie as the document's one security scheme. */
function sessionScheme(cookie: string) {
  return {
    type: 'apiKey' as const,
    in: 'cookie',
    name: cookie,
    description:
      'The session cookie better-auth sets on sign-in and sign-up. A security requirement lists the roles that may call.',
  };
}

/**
 * The whole OpenAPI 3.1 document around the operations @fastify/swagger built from the routes:
 * better-auth's declared endpoints, the tags in order, the error shapes as components and the
 * session cookie as the security scheme.
 */
function presentApiDocument(
  openapiObject: { paths?: object },
  routes: readonly DeclaredRoute[],
  options: ApiDocumentOptions,
): ApiDocument {
  const paths = { ...(openapiObject.paths as Record<string, Record<string, unknown>>) };
  for (const operation of documentedOperations(routes).filter((each) => each.betterAuth))
    (paths[operation.path] ??= {})[operation.method] = presentBetterAuthOperation(operation);
  // Path parameters first, as the path names them, then the query's and the headers.
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods) as { parameters?: { in: string }[] }[])
      operation.parameters?.sort((a, b) => PARAMETER_ORDER[a.in]! - PARAMETER_ORDER[b.in]!);
  }
  const tags = Object.values(paths).flatMap((methods) =>
    Object.values(methods).flatMap((operation) => (operation as { tags: string[] }).tags),
  );
  return {
    openapi: '3.1.1',
    info: {
      title: 'Digi Library API',
      version: options.version,
      description: [
        // A heading between the title and the tags' (h3), so the reference's headings go in order.
        '## How the API answers',
        'Every failed call answers `ErrorResponse` (better-auth’s own endpoints under `/api/auth/` answer `BetterAuthError`).',
        'A state-changing call from a foreign `Origin` is refused with 403 before any handler runs.',
        '`x-roles` lists who may call each operation (docs/role-matrix.md); the server decides from the session cookie, never from the payload.',
        'better-auth serves everything under `/api/auth/*`; only the endpoints the web app and its mails use are described.',
      ].join('\n\n'),
    },
    servers: [{ url: options.serverUrl }],
    tags: [...new Set(tags)].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        ErrorResponse: jsonSchema(errorResponseSchema, 'output'),
        BetterAuthError: jsonSchema(betterAuthErrorSchema, 'output'),
      },
      securitySchemes: { session: sessionScheme(options.sessionCookie) },
    },
  };
}

/**
 * @fastify/swagger's options: each declared route as an operation, then the document around them.
 * `routes` is read when the document is built (after start-up).
 */
export function apiDocumentOptions(
  routes: () => readonly DeclaredRoute[],
  options: ApiDocumentOptions,
): {
  openapi: { openapi: string; components: object };
  transform: SwaggerTransform;
  transformObject: SwaggerTransformObject;
  convertConstToEnum: false;
} {
  return {
    // The security scheme is needed while the operations are built; the rest comes at the end.
    openapi: {
      openapi: '3.1.1',
      components: { securitySchemes: { session: sessionScheme(options.sessionCookie) } },
    },
    transform: presentOperation,
    transformObject: (document) =>
      presentApiDocument(
        'openapiObject' in document ? document.openapiObject : {},
        routes(),
        options,
      ) as ReturnType<SwaggerTransformObject>,
    // OpenAPI 3.1 has `const`: the contract's literals stay as they are.
    convertConstToEnum: false,
  };
}
