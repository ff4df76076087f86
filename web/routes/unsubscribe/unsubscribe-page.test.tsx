import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '#contract/routes.ts';
import { mockApi, type ApiAnswer } from '../../test/api-mock.tsx';
import { UnsubscribePage } from './unsubscribe-page.tsx';

/** The screen at `path`, as React runs it in development (effects twice), for a guest. */
function renderUnsubscribe(path: string, answer: ApiAnswer) {
  const calls = mockApi({
    'GET /users/me': () => ({ body: { user: null } }),
    'POST /notices/unsubscribe': () => answer,
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: ROUTES.unsubscribe, element: <UnsubscribePage /> }], {
    initialEntries: [path],
  });
  render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return () => calls.filter((call) => call.path === '/notices/unsubscribe');
}

describe('the unsubscribe screen', () => {
  it('sends the token once and shows the server’s message, with the way back', async () => {
    const posts = renderUnsubscribe('/unsubscribe?token=abc.def', {
      body: {
        success: true,
        kind: 'overdue',
        message: 'You will no longer get e-mails about a loan that is overdue.',
      },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You are unsubscribed' }),
    ).toBeTruthy();
    expect(
      screen.getByText('You will no longer get e-mails about a loan that is overdue.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My account' }).getAttribute('href')).toBe(
      ROUTES.account,
    );
    expect(posts().map((call) => call.body)).toEqual([{ token: 'abc.def' }]);
  });

  it('says plainly when the link is bad', async () => {
    const posts = renderUnsubscribe('/unsubscribe?token=forged', {
      status: 400,
      body: { success: false, message: 'This unsubscribe link is not valid.' },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This unsubscribe link did not work' }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('This unsubscribe link is not valid.');
    expect(screen.getByRole('link', { name: 'My account' })).toBeTruthy();
    expect(await screen.findByText(/You will be asked to sign in first/)).toBeTruthy();
    expect(posts()).toHaveLength(1);
  });

  it('says the server could not be reached', async () => {
    renderUnsubscribe('/unsubscribe?token=abc', 'network-error');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Could not reach the server/);
  });

  it('sends nothing without a token', async () => {
    const posts = renderUnsubscribe('/unsubscribe', { body: {} });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This unsubscribe link did not work' }),
    ).toBeTruthy();
    expect(screen.getByText(/The link has no token/)).toBeTruthy();
    expect(posts()).toHaveLength(0);
  });
});
