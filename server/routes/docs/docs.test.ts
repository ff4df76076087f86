import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocumentSchema } from '#contract/http/docs.ts';
import { documentedOperations, type DocumentedOperation } from '../../presenters/api-document.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { matrixRows, WHO } from '../../test/role-matrix.ts';
import { API_REFERENCE_PATH } from './index.ts';

/** Every `$ref` in a JSON value. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [child] : refs(child),
  );
}

/** What a browser sends when a person opens an address. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET /api/docs, the OpenAPI description', () => {
  let testApp: TestApp;
  /** Every operation the routes declare (better-auth's wildcard: each endpoint it declares). */
  let operations: DocumentedOperation[];
  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    operations = documentedOperations(testApp.app.declaredRoutes);
  });
  afterAll(async () => testApp.close());

  it('describes every /api route the server registers, and nothing it does not', async () => {
    const registered = [...new Set(testApp.app.apiRoutes)].sort();
    // Every route is declared: an undeclared one would be missing from the document.
    const declared = [...new Set(testApp.app.declaredRoutes.map(({ route }) => route))].sort();
    expect(declared).toEqual(registered);
    const described = [...new Set(operations.map((operation) => operation.route))].sort();
    expect(described).toEqual(registered);
    // The document holds exactly the declared operations.
    const document = (await testApp.app.inject({ url: '/api/docs' })).json();
    const inDocument = Object.entries(document.paths as Record<string, object>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`),
    );
    expect(inDocument.sort()).toEqual(
      operations.map(({ method, path }) => `${method} ${path}`).sort(),
    );
  });

  it('agrees with docs/role-matrix.md on who may call each route', () => {
    const rows = new Map(matrixRows('HTTP').map((row) => [row.call, row.cells]));
    for (const { route, declaration } of testApp.app.declaredRoutes) {
      const operation = { route, access: declaration.access };
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
    for (const { method, path, access, operation } of operations) {
      const described = document.paths[path]?.[method] as
        | {
            operationId: string;
            parameters?: { name: string; in: string }[];
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
      const declared = (described!.parameters ?? []).filter((parameter) => parameter.in === 'path');
      expect(declared.map((parameter) => parameter.name)).toEqual(inPath);
      expect(Boolean(described!.requestBody), `${path} body`).toBe(
        Boolean(operation.body ?? operation.upload),
      );
      if (operation.upload) {
        expect(described!.requestBody).toMatchObject({
          content: { [operation.upload.contentType]: { schema: { format: 'binary' } } },
        });
      }
      const success = operation.created ? '201' : '200';
      expect(Object.keys(described!.responses)).toContain(operation.redirect ? '302' : success);
      if (operation.response) expect(Object.keys(described!.responses)).toContain(success);
      expect(Object.keys(described!.responses)).toContain('500');
      if (access !== 'guest') expect(Object.keys(described!.responses)).toContain('401');
      expect(described!.security).toEqual(
        access === 'guest'
          ? [{}, { session: [] }]
          : [{ session: typeof access === 'string' ? [] : [...access] }],
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

  it('answers the same JSON at /api/docs/openapi.json, and to JSON clients at /api/docs', async () => {
    const document = (await testApp.app.inject({ url: '/api/docs' })).json();
    for (const [url, accept] of [
      ['/api/docs/openapi.json', undefined],
      ['/api/docs/openapi.json', BROWSER_ACCEPT],
      ['/api/docs', 'application/json'],
      ['/api/docs', '*/*'],
      ['/api/docs', 'application/json, text/html;q=0.9'],
    ] as const) {
      const response = await testApp.app.inject({
        url,
        headers: accept === undefined ? {} : { accept },
      });
      expect(response.statusCode, `${url} ${accept}`).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual(document);
    }
  });

  it('sends a browser at /api/docs on to the interactive reference', async () => {
    for (const accept of [BROWSER_ACCEPT, 'text/html']) {
      const response = await testApp.app.inject({ url: '/api/docs', headers: { accept } });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(API_REFERENCE_PATH);
      expect(response.headers.vary).toMatch(/accept/i);
    }
    expect((await testApp.app.inject({ url: '/api/docs' })).headers.vary).toMatch(/accept/i);
  });

  it('serves the reference page and its own scripts under the strict Content-Security-Policy', async () => {
    const page = await testApp.app.inject({
      url: API_REFERENCE_PATH,
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc).toBe("script-src 'self'");
    // Every script is a file of this server's: none inline, none from another site.
    const scripts = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline!.trim(), 'an inline script').toBe('');
      const src = /src="([^"]+)"/.exec(attributes!)?.[1];
      expect(src, 'a script without src').toBeDefined();
      const file = await testApp.app.inject({
        url: new URL(src!, `http://x${API_REFERENCE_PATH}`).pathname,
      });
      expect(file.statusCode, src).toBe(200);
      expect(file.headers['content-type'], src).toMatch(/javascript/);
    }
    // What the page reads: the same document.
    const json = await testApp.app.inject({ url: `${API_REFERENCE_PATH}json` });
    expect(json.json()).toEqual((await testApp.app.inject({ url: '/api/docs' })).json());
  });
});
