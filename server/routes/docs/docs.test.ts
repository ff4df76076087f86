import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocumentSchema } from '../../../contract/http/docs.ts';
import { openApiPath } from '../../presenters/api-document.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { matrixRows, WHO } from '../../test/role-matrix.ts';
import { API_OPERATIONS } from './operations.ts';

/** Every `$ref` in a JSON value. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [child] : refs(child),
  );
}

describe('GET /api/docs, the OpenAPI description', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('pglite');
  });
  afterAll(async () => testApp.close());

  it('describes every /api route the server registers, and nothing it does not', () => {
    const registered = [...new Set(testApp.app.apiRoutes)].sort();
    const described = [...new Set(API_OPERATIONS.map((operation) => operation.route))].sort();
    expect(described).toEqual(registered);
  });

  it('agrees with docs/role-matrix.md on who may call each route', () => {
    const rows = new Map(matrixRows('HTTP').map((row) => [row.call, row.cells]));
    for (const operation of API_OPERATIONS) {
      const cells = rows.get(operation.route);
      expect(cells, `${operation.route} is not in the role matrix`).toBeDefined();
      for (const who of WHO) {
        const refused =
          who === 'guest'
            ? operation.access !== 'guest'
            : Array.isArray(operation.access) && !operation.access.includes(who);
        const expected = who === 'guest' ? '401' : '403';
        expect(cells![who] === expected, `${operation.route} as ${who}: ${cells![who]}`).toBe(
          refused,
        );
      }
    }
  });

  it('is served to guests as JSON: OpenAPI 3.1, each operation with its parameters and answers', async () => {
    const response = await testApp.app.inject({ url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = apiDocumentSchema.parse(response.json());
    expect(document.openapi).toBe('3.1.1');

    const operationIds = new Set<string>();
    for (const operation of API_OPERATIONS) {
      const [method, path] = openApiPath(operation);
      const described = document.paths[path]?.[method] as
        | {
            operationId: string;
            parameters: { name: string; in: string }[];
            requestBody?: unknown;
            responses: Record<string, unknown>;
            security: unknown[];
          }
        | undefined;
      expect(described, `${method} ${path}`).toBeDefined();
      expect(operationIds.has(described!.operationId), described!.operationId).toBe(false);
      operationIds.add(described!.operationId);
      // Every {param} of the path is a path parameter, and the other way round.
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = described!.parameters.filter((parameter) => parameter.in === 'path');
      expect(declared.map((parameter) => parameter.name)).toEqual(inPath);
      expect(Boolean(described!.requestBody), `${path} body`).toBe(Boolean(operation.body));
      expect(Object.keys(described!.responses)).toContain(operation.redirect ? '302' : '200');
      expect(Object.keys(described!.responses)).toContain('500');
      if (operation.access !== 'guest') expect(Object.keys(described!.responses)).toContain('401');
      expect(described!.security).toEqual(
        operation.access === 'guest'
          ? [{}, { session: [] }]
          : [{ session: operation.access === 'signed-in' ? [] : [...operation.access] }],
      );
    }
    // Every reference points at something the document holds.
    for (const ref of refs(document)) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], document);
      expect(target, ref).toBeDefined();
    }
  });

  it('converts the contract schemas: the search query and the reservation body as they are', async () => {
    const document = (await testApp.app.inject({ url: '/api/docs' })).json();
    const search = document.paths['/api/search'].get;
    expect(search.parameters.find((p: { name: string }) => p.name === 'pageSize')).toEqual({
      name: 'pageSize',
      in: 'query',
      required: false,
      schema: { default: 20, type: 'integer', minimum: 1, maximum: 50 },
    });
    const reserve = document.paths['/api/users/reservation'].post;
    expect(reserve.requestBody.content['application/json'].schema.required).toEqual([
      'book',
      'reservation',
    ]);
    expect(reserve.parameters).toContainEqual(
      expect.objectContaining({ name: 'idempotency-key', in: 'header', required: false }),
    );
    expect(reserve.responses['409'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    });
    expect(document.components.securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'digi.session_token',
    });
  });
});
