import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { CurrentUser } from '#contract/http/users.ts';
import { SESSION_KEY } from '../api/session.ts';

/** One call the screen made, as the fake server saw it. */
export interface ApiCall {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/** A fake answer: a status and JSON body, or a network failure. */
export type ApiAnswer = { status?: number; body: unknown } | 'network-error';

/** Answers by `'METHOD /path'` (path after `/api`, without the query string). */
export type ApiRoutes = Record<string, (call: ApiCall) => ApiAnswer>;

/**
 * Replaces `fetch` with a fake `/api` server for one test. Unknown calls fail with 404, so a
 * screen asking for something unexpected shows it in the test. Returns the calls made.
 */
export function mockApi(routes: ApiRoutes): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const call: ApiCall = {
      method: init.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      search: url.searchParams,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const answer = routes[`${call.method} ${call.path}`]?.(call) ?? {
      status: 404,
      body: { success: false, message: `No fake for ${call.method} ${call.path}` },
    };
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

/** A signed-in person for `GET /api/users/me`. */
export function testUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'user-1',
    email: 'ada@example.edu',
    firstName: 'Ada',
    lastName: 'Lovelace',
    name: 'Ada Lovelace',
    role: 'student',
    phoneNumber: '+44 20 7946 0000',
    institutionName: 'Analytical University',
    department: 'Mathematics',
    studentId: 'S-1',
    graduationYear: 2027,
    academicProfile: { fields: [], interests: [] },
    signupMethod: 'form',
    profileCompleted: true,
    chatUsername: '',
    ...overrides,
  };
}

/** Renders `element` at `path` with a fresh data cache that never retries. */
export function renderScreen(element: ReactNode, path = '/', user: CurrentUser | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // Screens read the session from the cache, as they do behind the route guard.
  if (user) client.setQueryData(SESSION_KEY, user);
  const router = createMemoryRouter([{ path: path.split('?')[0], element }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}
