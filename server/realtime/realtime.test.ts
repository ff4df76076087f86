import type { AddressInfo } from 'node:net';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.ts';

describe('Socket.IO on the app port', () => {
  let testApp: TestApp;
  let url: string;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { env: { PUBLIC_URL: 'https://library.example.edu' } });
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => testApp.close());

  function attempt(origin: string | undefined): Promise<'connected' | string> {
    const socket = connectSocket(url, {
      transports: ['websocket'],
      reconnection: false,
      ...(origin ? { extraHeaders: { origin } } : {}),
    });
    return new Promise((resolve) => {
      socket.once('connect', () => {
        socket.close();
        resolve('connected');
      });
      socket.once('connect_error', (error) => {
        socket.close();
        resolve(error.message);
      });
    });
  }

  it('accepts the public origin and clients that send none', async () => {
    expect(await attempt('https://library.example.edu')).toBe('connected');
    expect(await attempt(undefined)).toBe('connected');
  });

  it('refuses any other origin', async () => {
    expect(await attempt('https://evil.example')).not.toBe('connected');
    expect(await attempt('http://localhost:5173')).not.toBe('connected');
  });
});
