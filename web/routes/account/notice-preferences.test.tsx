import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NOTICE_KIND_LABELS, NOTICE_KINDS, type NoticeKind } from '#contract/http/notices.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { NoticePreferencesSection } from './notice-preferences.tsx';

const checkbox = (kind: NoticeKind) =>
  within(screen.getByRole('group', { name: NOTICE_KIND_LABELS[kind] })).getByRole('checkbox', {
    name: 'Also by e-mail',
  }) as HTMLInputElement;

const saveButton = () => screen.getByRole('button', { name: 'Save e-mail choices' });

/** The server's choices: every kind, off unless `on` says otherwise (the contract's record is total). */
function serve(
  on: Partial<Record<NoticeKind, boolean>>,
  put?: () => { status: number; body: unknown },
) {
  const email = Object.fromEntries(NOTICE_KINDS.map((kind) => [kind, on[kind] ?? false]));
  return mockApi({
    'GET /users/me/notices': () => ({ body: { email } }),
    'PUT /users/me/notices': (call) =>
      put?.() ?? {
        body: { email: { ...email, ...(call.body as { email: object }).email } },
      },
  });
}

describe('notice preferences on My account', () => {
  it('says in-app notices are always on and shows each kind’s e-mail choice', async () => {
    serve({ hold_offered: true, overdue: false });
    renderScreen(<NoticePreferencesSection />, '/account', testUser());
    await screen.findByRole('group', { name: NOTICE_KIND_LABELS.hold_offered });
    expect(screen.getByText(/Every notice is always shown in the app/)).toBeTruthy();
    expect(NOTICE_KINDS.map((kind) => checkbox(kind).checked)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect((saveButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves the choices with PUT and says so', async () => {
    const calls = serve({ hold_offered: true });
    renderScreen(<NoticePreferencesSection />, '/account', testUser());
    await screen.findByRole('group', { name: NOTICE_KIND_LABELS.overdue });
    fireEvent.click(checkbox('overdue'));
    fireEvent.click(checkbox('hold_offered'));
    fireEvent.click(saveButton());
    expect((await screen.findByRole('status')).textContent).toBe('Your e-mail choices are saved.');
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe('/users/me/notices');
    expect(put?.body).toEqual({
      email: {
        hold_offered: false,
        pickup_reminder: false,
        due_soon: false,
        overdue: true,
        request_status: false,
        moderation: false,
        mention: false,
      },
    });
    expect(checkbox('overdue').checked).toBe(true);
    expect(checkbox('hold_offered').checked).toBe(false);
    expect((saveButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the server’s refusal and keeps the choices made', async () => {
    serve({}, () => ({ status: 400, body: { success: false, message: 'Unknown notice kind.' } }));
    renderScreen(<NoticePreferencesSection />, '/account', testUser());
    await screen.findByRole('group', { name: NOTICE_KIND_LABELS.due_soon });
    fireEvent.click(checkbox('due_soon'));
    fireEvent.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Unknown notice kind.');
    expect(checkbox('due_soon').checked).toBe(true);
  });

  it('says so when the choices cannot be loaded', async () => {
    mockApi({});
    renderScreen(<NoticePreferencesSection />, '/account', testUser());
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be loaded/);
  });
});
