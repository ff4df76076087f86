import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ManagedUser } from '#contract/http/admin-users.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { DeskPeoplePage } from './desk-people-page.tsx';

const GRACE: ManagedUser = {
  id: 'grace',
  name: 'Grace Hopper',
  email: 'grace@uni.example',
  role: 'student',
  studentId: 'S-1906',
  disabled: false,
  pendingFaculty: false,
  createdAt: '2026-11-01T10:00:00.000Z',
};
const ME: ManagedUser = { ...GRACE, id: 'user-1', name: 'Ada Lovelace', role: 'librarian' };

const page = (users: ManagedUser[]) => ({ users, page: 1, pageSize: 25, total: users.length });

describe('/desk/people', () => {
  it('searches, changes a role after confirming, and disables with the reason it matters', async () => {
    let grace = GRACE;
    const calls = mockApi({
      'GET /admin/users': () => ({ body: page([grace, ME]) }),
      'PATCH /admin/users/grace': (call) => {
        grace = { ...grace, ...(call.body as Partial<ManagedUser>) };
        return { body: grace };
      },
    });
    renderScreen(<DeskPeoplePage />, '/desk/people', testUser({ role: 'librarian' }));
    expect(screen.getByRole('heading', { level: 1, name: 'People' })).toBeTruthy();
    const row = (await screen.findByRole('rowheader', { name: 'Grace Hopper' })).closest('tr')!;
    expect(within(row).getByText('grace@uni.example')).toBeTruthy();
    expect(within(row).getByText('S-1906')).toBeTruthy();
    expect(within(row).getByText('Student')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(screen.getByText('(you)')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Name, e-mail or student ID'), {
      target: { value: ' hopper ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.at(-1)?.search.get('q')).toBe('hopper'));

    fireEvent.click(screen.getByRole('button', { name: 'Change role of Grace Hopper' }));
    const roleDialog = screen.getByRole('dialog', { name: 'Change the role of Grace Hopper' });
    fireEvent.change(within(roleDialog).getByLabelText('New role'), {
      target: { value: 'faculty' },
    });
    fireEvent.click(within(roleDialog).getByRole('button', { name: 'Change role' }));
    expect(await screen.findByText('Grace Hopper is now faculty.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ role: 'faculty' });

    fireEvent.click(screen.getByRole('button', { name: 'Disable Grace Hopper' }));
    const disable = screen.getByRole('alertdialog', { name: 'Disable Grace Hopper’s account?' });
    expect(within(disable).getByText(/Their sessions end at once/)).toBeTruthy();
    fireEvent.click(within(disable).getByRole('button', { name: 'Disable account' }));
    expect(
      await screen.findByText('Grace Hopper’s account is disabled; their sessions have ended.'),
    ).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PATCH').at(-1)?.body).toEqual({
      disabled: true,
    });
    expect(await screen.findByRole('button', { name: 'Re-enable Grace Hopper' })).toBeTruthy();
  });

  it('shows the server’s refusal plainly in the dialog', async () => {
    mockApi({
      'GET /admin/users': () => ({ body: page([ME]) }),
      'PATCH /admin/users/user-1': () => ({
        status: 409,
        body: {
          success: false,
          message: 'You cannot disable your own account: ask another librarian.',
        },
      }),
    });
    renderScreen(<DeskPeoplePage />, '/desk/people', testUser({ role: 'librarian' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Disable Ada Lovelace' }));
    const dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'You cannot disable your own account: ask another librarian.',
    );
  });

  it('approves a faculty sign-up that waits, shown with its request', async () => {
    let waiting: ManagedUser = { ...GRACE, id: 'kate', name: 'Kate Waits', pendingFaculty: true };
    const calls = mockApi({
      'GET /admin/users': () => ({ body: page([waiting]) }),
      'PATCH /admin/users/kate': () => {
        waiting = { ...waiting, role: 'faculty', pendingFaculty: false };
        return { body: waiting };
      },
    });
    renderScreen(<DeskPeoplePage />, '/desk/people', testUser({ role: 'librarian' }));
    const row = (await screen.findByRole('rowheader', { name: 'Kate Waits' })).closest('tr')!;
    expect(within(row).getByText('Asks to be faculty')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Decline Kate Waits as faculty' })).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Approve Kate Waits as faculty' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve Kate Waits as faculty?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve as faculty' }));
    expect(await screen.findByText('Kate Waits is now faculty.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      facultyRequest: 'approved',
    });
    await waitFor(() => expect(screen.queryByText('Asks to be faculty')).toBeNull());
  });

  it('says so when nobody matches', async () => {
    mockApi({ 'GET /admin/users': () => ({ body: page([]) }) });
    renderScreen(<DeskPeoplePage />, '/desk/people?q=nobody', testUser({ role: 'librarian' }));
    expect(await screen.findByText('Nobody matches this search.')).toBeTruthy();
    expect((screen.getByLabelText('Name, e-mail or student ID') as HTMLInputElement).value).toBe(
      'nobody',
    );
  });
});
