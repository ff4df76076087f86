import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '#contract/routes.ts';
import { createTestApp, type TestApp } from '../test/app.ts';

const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';

describe('serving the web app', () => {
  let webRoot: string;
  let testApp: TestApp;

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'digi-web-'));
    await mkdir(path.join(webRoot, 'assets'));
    await writeFile(path.join(webRoot, 'index.html'), INDEX_HTML);
    await writeFile(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
    // As the build writes them (vite.config.ts): compressed copies beside the file.
    await writeFile(path.join(webRoot, 'assets', 'app-def456.js'), 'console.log(2)');
    await writeFile(path.join(webRoot, 'assets', 'app-def456.js.gz'), gzipSync('console.log(2)'));
    await writeFile(
      path.join(webRoot, 'assets', 'app-def456.js.br'),
      brotliCompressSync('console.log(2)'),
    );
    await writeFile(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    testApp = await createTestApp('pglite', { webRoot });
  });

  afterAll(async () => {
    await testApp.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await testApp.app.inject({ url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
  });

  it('sends the compressed copy a browser accepts, and the plain file to others', async () => {
    const url = '/assets/app-def456.js';
    const brotli = await testApp.app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    const gzip = await testApp.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log(2)');
    const plain = await testApp.app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(2)');
    // A file without copies is sent as it is, whatever the browser accepts.
    const uncompressed = await testApp.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(uncompressed.headers['content-encoding']).toBeUndefined();
    expect(uncompressed.body).toBe('console.log(1)');
  });

  it('serves index.html and other files for revalidation', async () => {
    for (const url of ['/', '/favicon.svg']) {
      const response = await testApp.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers every screen of the route table with the app (deep links and reloads)', async () => {
    for (const route of Object.values(ROUTES)) {
      const url = route.replace(':roomName', encodeURIComponent('Study group 1.0'));
      const response = await testApp.app.inject({ url: `${url}?from=reload` });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/text\/html/);
      expect(response.body, url).toBe(INDEX_HTML);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers an unknown screen with the app and status 404, so it can show its not-found page', async () => {
    const response = await testApp.app.inject({ url: '/no/such/page' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(INDEX_HTML);
  });

  it('answers a missing file with a plain 404, not the app', async () => {
    for (const url of ['/assets/index-old999.js', '/robots.txt']) {
      for (const headers of [{}, { 'accept-encoding': 'gzip, deflate, br' }]) {
        const response = await testApp.app.inject({ url, headers });
        expect(response.statusCode, url).toBe(404);
        expect(response.body, url).not.toContain('<html');
      }
    }
  });

  it('answers a source map the build did not write with a plain 404 (issue 19)', async () => {
    // A production build writes none unless SOURCE_MAPS=true (vite.config.ts).
    for (const url of ['/assets/index-abc123.js.map', '/assets/app-def456.js.map']) {
      for (const headers of [{}, { 'accept-encoding': 'gzip, br' }]) {
        const response = await testApp.app.inject({ url, headers });
        expect(response.statusCode, url).toBe(404);
        expect(response.body, url).toBe('Not found');
      }
    }
  });

  it('answers unknown /api paths and non-GET calls with JSON 404, never the app', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api'],
      ['POST', '/api/users/nope'],
      ['DELETE', '/signin'],
    ] as const) {
      const response = await testApp.app.inject({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
      expect(response.json(), url).toMatchObject({ success: false, message: expect.any(String) });
    }
  });

  it('sends security headers with a CSP the app satisfies without inline scripts', async () => {
    for (const url of ['/', '/api/health', '/assets/index-abc123.js']) {
      const response = await testApp.app.inject({ url });
      const csp = String(response.headers['content-security-policy']);
      const scriptSrc = csp
        .split(';')
        .find((directive) => directive.trim().startsWith('script-src'));
      expect(scriptSrc, url).toBe("script-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).not.toContain('upgrade-insecure-requests');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
  });
});

describe('serving the web app behind https', () => {
  it('adds HSTS and upgrade-insecure-requests when PUBLIC_URL is https', async () => {
    const testApp = await createTestApp('pglite', {
      env: { PUBLIC_URL: 'https://library.example.edu' },
    });
    try {
      const response = await testApp.app.inject({ url: '/api/health' });
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(String(response.headers['content-security-policy'])).toContain(
        'upgrade-insecure-requests',
      );
    } finally {
      await testApp.close();
    }
  });
});

describe('before the web app is built', () => {
  it('says how to build it instead of failing obscurely', async () => {
    const testApp = await createTestApp('pglite', { webRoot: '/nonexistent' });
    try {
      const response = await testApp.app.inject({ url: '/signin' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build');
      const api = await testApp.app.inject({ url: '/api/health' });
      expect(api.statusCode).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});

describe('a deep link to a screen loaded on demand', () => {
  let webRoot: string;
  let testApp: TestApp;
  const index = '<!doctype html><html><head><title>Digi Library</title></head><body></body></html>';

  beforeAll(async () => {
    webRoot = await mkdtemp(path.join(tmpdir(), 'digi-web-'));
    await writeFile(path.join(webRoot, 'index.html'), index);
    // As the build writes it (vite.config.ts, screenPreloads).
    await writeFile(
      path.join(webRoot, 'screen-preloads.json'),
      JSON.stringify({
        signIn: { js: ['/assets/sign-in-1.js', '/assets/forms-2.js'], css: [] },
        chatRoom: { js: ['/assets/chat-room-3.js'], css: ['/assets/chat-room-4.css'] },
      }),
    );
    testApp = await createTestApp('pglite', { webRoot });
  });

  afterAll(async () => {
    await testApp.close();
    await rm(webRoot, { recursive: true, force: true });
  });

  it("names that screen's files in the page, so the browser fetches them with the app's", async () => {
    const signIn = await testApp.app.inject({ url: `${ROUTES.signIn}?next=%2Fpublish` });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(signIn.headers['cache-control']).toBe('no-cache');
    expect(signIn.body).toBe(
      index.replace(
        '</head>',
        '<link rel="modulepreload" crossorigin href="/assets/sign-in-1.js">' +
          '<link rel="modulepreload" crossorigin href="/assets/forms-2.js"></head>',
      ),
    );
    const room = await testApp.app.inject({ url: '/room/Study%20group' });
    expect(room.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/chat-room-3.js">',
    );
    expect(room.body).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/chat-room-4.css">',
    );
  });

  it('adds nothing to the landing page, screens without a list, or unknown paths', async () => {
    for (const url of ['/', ROUTES.signUp, '/no-such-screen']) {
      expect((await testApp.app.inject({ url })).body).toBe(index);
    }
    expect((await testApp.app.inject({ url: '/no-such-screen' })).statusCode).toBe(404);
  });
});
