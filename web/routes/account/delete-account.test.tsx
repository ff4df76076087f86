import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELETED_MESSAGE,
  DELETED_ACCOUNT_NAME,
  type AccountDeletionPreview,
} from '#contract/http/users.ts';
import { SESSION_KEY } from '../../api/session.ts';
import { mockApi, renderScreen, testUser, type ApiAnswer } from '../../test/api-mock.tsx';
import { DeleteAccountSection } from './delete-account.tsx';

const PREVIEW: AccountDeletionPreview = {
  openLoans: [],
  reservations: 2,
  holds: 1,
  requests: 3,
  roomsCreated: 1,
  messagesSent: 4,
  messagesShownAs: DELETED_ACCOUNT_NAME,
  materialsPublished: 0,
  confirmWith: 'password',
  lastLibrarian: false,
};

function serve(preview: Partial<AccountDeletionPreview>, remove?: () => ApiAnswer) {
  return mockApi({
    'GET /users/me/deletion': () => ({ body: { ...PREVIEW, ...preview } }),
    'DELETE /users/me': () =>
      remove?.() ?? { body: { success: true, message: ACCOUNT_DELETED_MESSAGE } },
  });
}

/** The section on `/account`, signed in, with a landing page to be sent to. */
function renderAtAccount(user = testUser()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, user);
  const router = createMemoryRouter(
    [
      { path: '/account', element: <DeleteAccountSection user={user} /> },
      { path: '/', element: <p>Landing</p> },
    ],
    { initialEntries: ['/account'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}

const deleteButton = () => screen.getByRole('button', { name: 'Delete my account' });

describe('Delete my account on My account', () => {
  it('says plainly what will happen before asking anything', async () => {
    serve({});
    renderScreen(<DeleteAccountSection user={testUser()} />, '/account', testUser());
    const list = await screen.findByRole('list');
    const lines = within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual([
      'Your 2 active reservations are cancelled; the copies go to the next person waiting.',
      'You give up your place in 1 waiting list.',
      'The 3 resource requests you filed are removed.',
      'The 1 forum room you created is removed, with every message in it, other people’s too.',
      'Your 4 messages in other people’s forum rooms stay, shown as from “Deleted account”.',
      'The library’s record of your past loans stays, without your name.',
      'You are signed out everywhere, and this cannot be undone.',
    ]);
    expect(screen.getByLabelText('Your password')).toBeTruthy();
  });

  it('names the books on loan and offers no button until they are back', async () => {
    serve({
      openLoans: [
        { title: 'Middlemarch', dueAt: '2026-12-14T15:00:00.000Z' },
        { title: 'Bleak House', dueAt: '2026-12-20T15:00:00.000Z' },
      ],
    });
    renderScreen(<DeleteAccountSection user={testUser()} />, '/account', testUser());
    expect(await screen.findByText(/You have 2 books on loan/)).toBeTruthy();
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['Middlemarch, due Dec 14, 2026', 'Bleak House, due Dec 20, 2026']);
    expect(screen.queryByRole('button', { name: 'Delete my account' })).toBeNull();
  });

  it('refuses the last librarian without a button', async () => {
    serve({ lastLibrarian: true });
    renderScreen(<DeleteAccountSection user={testUser({ role: 'librarian' })} />, '/account');
    expect(await screen.findByText(/You are the last librarian/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete my account' })).toBeNull();
  });

  it('asks for the password, then a second yes, then deletes and lands on the landing page', async () => {
    const calls = serve({});
    const { router, client } = renderAtAccount();
    await screen.findByLabelText('Your password');
    fireEvent.click(deleteButton());
    expect(await screen.findByText('Fill this in to confirm')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    fireEvent.change(screen.getByLabelText('Your password'), {
      target: { value: 'correct horse battery' },
    });
    fireEvent.click(deleteButton());
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Delete your account for good?',
    });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.state).toEqual({ accountDeleted: ACCOUNT_DELETED_MESSAGE });
    expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual({
      password: 'correct horse battery',
    });
    expect(client.getQueryData(SESSION_KEY)).toBeNull();
  });

  it('puts a wrong password beside the field and keeps the account', async () => {
    serve({}, () => ({
      status: 400,
      body: {
        success: false,
        message: 'Some fields are missing or invalid.',
        errors: [{ path: 'password', message: 'That is not your password.' }],
      },
    }));
    const { router } = renderScreen(
      <DeleteAccountSection user={testUser()} />,
      '/account',
      testUser(),
    );
    fireEvent.change(await screen.findByLabelText('Your password'), {
      target: { value: 'wrong' },
    });
    fireEvent.click(deleteButton());
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, delete my account' }));
    expect(await screen.findByText('That is not your password.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account');
  });

  it('asks an account without a password for its e-mail address', async () => {
    const calls = serve({ confirmWith: 'email' });
    renderAtAccount(testUser({ signupMethod: 'google' }));
    const field = await screen.findByLabelText('Your e-mail address');
    expect(screen.getByText(/type ada@example.edu to confirm/)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'ada@example.edu' } });
    fireEvent.click(deleteButton());
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, delete my account' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual({
        confirmEmail: 'ada@example.edu',
      }),
    );
  });

  it('shows a refusal such as a loan made meanwhile', async () => {
    serve({}, () => ({
      status: 409,
      body: {
        success: false,
        message: 'You have 1 book on loan ("Middlemarch"): return it at the desk first.',
      },
    }));
    renderScreen(<DeleteAccountSection user={testUser()} />, '/account', testUser());
    fireEvent.change(await screen.findByLabelText('Your password'), {
      target: { value: 'correct horse battery' },
    });
    fireEvent.click(deleteButton());
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, delete my account' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/return it at the desk first/);
  });
});
