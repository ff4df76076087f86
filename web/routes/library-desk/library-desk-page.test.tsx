import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CirculationEvent, DeskLoan } from '#contract/http/loans.ts';
import type { DeskReservation } from '#contract/http/reservations.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { formatDate } from '../../components/records/format.ts';
import { type ApiRoutes, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { LibraryDeskPage } from './library-desk-page.tsx';

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

const ACTIVE: DeskReservation = {
  reservationId: 'RES-0042',
  status: 'active',
  date: '2026-03-02',
  formattedDate: 'Monday, March 2',
  timeSlot: '9:00-9:30 AM',
  slotStartsAt: '2026-03-02T09:00:00.000Z',
  expiresAt: '2026-03-03T09:00:00.000Z',
  createdAt: '2026-03-01T08:00:00.000Z',
  book: { id: 'b1', title: 'Dune', author: 'Frank Herbert', genre: 'SF', coverImage: '' },
  holder: { name: 'Ada Lovelace', email: 'ada@example.edu', phoneNumber: '+44 20 7946 0000' },
};

function pickups(date: string) {
  return {
    date,
    formattedDate: 'Monday, March 2',
    slots: RESERVATION_TIME_SLOTS.map((timeSlot, index) => ({
      timeSlot,
      reservations: index === 0 ? [ACTIVE] : [],
    })),
    onLoan: [{ ...ACTIVE, reservationId: 'RES-0007', status: 'collected' as const }],
  };
}

function loan(overrides: Partial<DeskLoan> = {}): DeskLoan {
  return {
    loanId: 'LOAN-1',
    status: 'on_loan',
    checkedOutAt: inDays(-10),
    dueAt: inDays(11),
    overdue: false,
    renewals: 0,
    renewalsLeft: 2,
    renewBlockedBecause: null,
    returnedAt: null,
    reservationId: 'RES-0042',
    copy: { barcode: 'DL-0001', location: 'Main hall' },
    book: { id: 'b1', title: 'Dune', author: 'Frank Herbert', coverImage: '' },
    borrower: { name: 'Ada Lovelace', email: 'ada@example.edu', phoneNumber: '' },
    ...overrides,
  };
}

const LATE = loan({
  loanId: 'LOAN-2',
  dueAt: inDays(-3),
  overdue: true,
  renewals: 2,
  renewalsLeft: 0,
  renewBlockedBecause: 'It has been renewed 2 times, the most allowed.',
  copy: { barcode: 'DL-0002', location: '' },
  book: { id: 'b2', title: 'Emma', author: 'Jane Austen', coverImage: '' },
  borrower: { name: 'Grace Hopper', email: 'grace@example.edu', phoneNumber: '' },
});

const EVENTS: CirculationEvent[] = [
  {
    at: '2026-03-02T09:05:00.000Z',
    action: 'check_out',
    actor: 'Desk Librarian',
    borrower: 'Ada Lovelace',
    barcode: 'DL-0001',
    title: 'Dune',
    loanId: 'LOAN-1',
    reservationId: 'RES-0042',
  },
  {
    at: '2026-03-02T09:00:00.000Z',
    action: 'renew',
    actor: 'Grace Hopper',
    borrower: 'Grace Hopper',
    barcode: 'DL-0002',
    title: 'Emma',
    loanId: 'LOAN-2',
    reservationId: null,
  },
];

/** The desk's fake server: the day, the loans (filtered as the server would) and the activity. */
function desk(routes: ApiRoutes = {}, loans: DeskLoan[] = [loan(), LATE]) {
  return mockApi({
    'GET /desk/pickups': (call) => ({ body: pickups(call.search.get('date') ?? '2026-03-02') }),
    'GET /desk/loans': (call) => {
      const q = call.search.get('q')?.toLowerCase() ?? '';
      const matching = loans.filter(
        (item) =>
          !q ||
          item.borrower.name.toLowerCase().includes(q) ||
          item.book.title.toLowerCase().includes(q),
      );
      const shown =
        call.search.get('overdue') === 'true' ? matching.filter((item) => item.overdue) : matching;
      return {
        body: {
          payload: shown,
          total: shown.length,
          overdue: matching.filter((item) => item.overdue).length,
        },
      };
    },
    'GET /desk/activity': () => ({ body: { payload: EVENTS } }),
    ...routes,
  });
}

const posts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST').map(({ path, body }) => ({ path, body }));

describe('library desk', () => {
  it('shows the day by slot, marks a no-show and changes day', async () => {
    const calls = desk({
      'PATCH /desk/reservations/RES-0042': () => ({
        body: { success: true, reservation: { ...ACTIVE, status: 'no_show' } },
      }),
    });
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Library desk' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: '9:00-9:30 AM' })).toBeTruthy();
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-03-02');
    expect(screen.getAllByText('No reservations in this slot.')).toHaveLength(4);
    // The pickup no longer offers "Mark collected": a copy goes out by its barcode.
    expect(screen.queryByRole('button', { name: /^Mark collected/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Mark returned/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /^Mark no-show/ }));
    expect(await screen.findByText('“Dune” for Ada Lovelace: marked as a no-show.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ status: 'no_show' });

    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-03-03' } });
    await waitFor(() =>
      expect(
        calls
          .filter((call) => call.path === '/desk/pickups')
          .at(-1)
          ?.search.get('date'),
      ).toBe('2026-03-03'),
    );
  });

  it('checks a pickup out with the barcode scanned into its own box', async () => {
    const user = userEvent.setup();
    let answer: 'refuse' | 'lend' = 'refuse';
    const calls = desk({
      'POST /desk/loans': () =>
        answer === 'refuse'
          ? {
              status: 409,
              body: { success: false, message: 'This copy is a copy of another book.' },
            }
          : { body: { success: true, loan: loan({ dueAt: '2026-12-16T17:00:00.000Z' }) } },
    });
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    const open = await screen.findByRole('button', { name: /^Check out\W+Dune for Ada Lovelace$/ });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    await user.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    const form = screen.getByRole('form', { name: 'Check out “Dune” to Ada Lovelace' });
    const box = within(form).getByLabelText('Barcode of the copy') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(box));

    await user.keyboard('DL-0009{Enter}');
    expect(
      await within(form).findByText('DL-0009: This copy is a copy of another book.'),
    ).toBeTruthy();
    expect(document.activeElement).toBe(box);

    answer = 'lend';
    await user.keyboard('DL-0001{Enter}');
    expect(
      await screen.findByText(
        `“Dune” checked out to Ada Lovelace, due ${formatDate('2026-12-16T17:00:00.000Z')}.`,
      ),
    ).toBeTruthy();
    expect(posts(calls)).toEqual([
      { path: '/desk/loans', body: { barcode: 'DL-0009', reservationId: 'RES-0042' } },
      { path: '/desk/loans', body: { barcode: 'DL-0001', reservationId: 'RES-0042' } },
    ]);
    expect(screen.queryByRole('form', { name: 'Check out “Dune” to Ada Lovelace' })).toBeNull();
  });

  it('closes the pickup’s barcode box with Cancel and gives the focus back', async () => {
    const user = userEvent.setup();
    desk();
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    const open = await screen.findByRole('button', { name: /^Check out\W+Dune for Ada Lovelace$/ });
    await user.click(open);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Barcode of the copy')).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it('lists the loans with the overdue ones plainly marked, filters them and shows the overdue view', async () => {
    const user = userEvent.setup();
    const calls = desk();
    const { router } = renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    const section = (await screen.findByRole('heading', { name: 'On loan' })).closest('section')!;
    expect(await within(section).findByText('2 copies on loan, 1 of them overdue.')).toBeTruthy();
    const late = within(section).getByRole('heading', { name: 'Emma' }).closest('li')!;
    expect(within(late).getByText('Overdue')).toBeTruthy();
    expect(
      within(late).getByText(`Overdue: it was due ${formatDate(LATE.dueAt)}, 3 days ago.`),
    ).toBeTruthy();
    expect(within(late).getByText(/Cannot be renewed: It has been renewed 2 times/)).toBeTruthy();
    expect(within(late).queryByRole('button', { name: /^Renew/ })).toBeNull();
    expect(within(late).getByText('Grace Hopper')).toBeTruthy();
    const onTime = within(section).getByRole('heading', { name: 'Dune' }).closest('li')!;
    expect(within(onTime).getByText('Not renewed yet · 2 renewals left')).toBeTruthy();
    expect(within(onTime).getByText(/^Due .* \(in 11 days\)\.$/)).toBeTruthy();

    await user.type(within(section).getByLabelText('Find a loan'), 'grace');
    await waitFor(() =>
      expect(
        calls
          .filter((call) => call.path === '/desk/loans')
          .at(-1)
          ?.search.get('q'),
      ).toBe('grace'),
    );
    expect(
      await within(section).findByText('1 copy on loan matching the search, 1 of them overdue.'),
    ).toBeTruthy();
    expect(within(section).queryByRole('heading', { name: 'Dune' })).toBeNull();

    await user.clear(within(section).getByLabelText('Find a loan'));
    const overdueView = within(section).getByRole('button', { name: 'Overdue (1)' });
    expect(overdueView.getAttribute('aria-pressed')).toBe('false');
    await user.click(overdueView);
    expect(overdueView.getAttribute('aria-pressed')).toBe('true');
    expect(router.state.location.search).toBe('?loans=overdue');
    expect(await within(section).findByText('1 overdue loan.')).toBeTruthy();
    expect(
      calls
        .filter((call) => call.path === '/desk/loans')
        .at(-1)
        ?.search.get('overdue'),
    ).toBe('true');
  });

  it('renews and takes back a loan from the list, and says why not when refused', async () => {
    const user = userEvent.setup();
    let renewAnswer: 'refuse' | 'renew' = 'refuse';
    const calls = desk({
      'POST /desk/loans/LOAN-1/renew': () =>
        renewAnswer === 'refuse'
          ? {
              status: 409,
              body: {
                success: false,
                message: 'Someone is waiting for this book, so it cannot be renewed.',
              },
            }
          : {
              body: {
                success: true,
                loan: loan({ dueAt: '2026-12-30T17:00:00.000Z', renewals: 1, renewalsLeft: 1 }),
              },
            },
      'POST /desk/returns': () => ({
        body: {
          success: true,
          loan: loan({
            status: 'returned',
            returnedAt: new Date().toISOString(),
            dueAt: inDays(-1),
          }),
        },
      }),
    });
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    const renew = await screen.findByRole('button', { name: /^Renew\W+Dune for Ada Lovelace$/ });
    await user.click(renew);
    const row = renew.closest('li')!;
    expect(
      await within(row).findByText('Someone is waiting for this book, so it cannot be renewed.'),
    ).toBeTruthy();

    renewAnswer = 'renew';
    await user.click(renew);
    expect(
      await within(row).findByText(
        `“Dune” renewed for Ada Lovelace: now due ${formatDate('2026-12-30T17:00:00.000Z')}.`,
      ),
    ).toBeTruthy();

    await user.click(screen.getByRole('button', { name: /^Return\W+Dune from Ada Lovelace$/ }));
    const said = await screen.findByText(
      `“Dune” (copy DL-0001) returned by Ada Lovelace, late: it was due ${formatDate(inDays(-1))}.`,
    );
    await waitFor(() => expect(document.activeElement).toBe(said));
    expect(posts(calls)).toEqual([
      { path: '/desk/loans/LOAN-1/renew', body: undefined },
      { path: '/desk/loans/LOAN-1/renew', body: undefined },
      { path: '/desk/returns', body: { barcode: 'DL-0001' } },
    ]);
  });

  it('shows the recent desk activity in words: who, what, when, which copy', async () => {
    desk();
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    const section = (await screen.findByRole('heading', { name: 'Recent desk activity' })).closest(
      'section',
    )!;
    const items = await within(section).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain(
      'Desk Librarian checked out “Dune” to Ada Lovelace · copy DL-0001',
    );
    expect(items[1]?.textContent).toContain('Grace Hopper renewed their loan of “Emma”');
    expect(within(items[0]!).getByText(/2026/).getAttribute('datetime')).toBe(EVENTS[0]?.at);
  });
});

describe('check in or out at the desk', () => {
  const barcodeBox = () => screen.getByLabelText('Barcode') as HTMLInputElement;

  it('checks out by a scan ending in Enter, empties the box and keeps the focus', async () => {
    const user = userEvent.setup();
    const calls = desk({
      'POST /desk/loans': () => ({
        body: { success: true, loan: loan({ dueAt: '2026-12-16T17:00:00.000Z' }) },
      }),
    });
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    await user.click(barcodeBox());
    await user.keyboard('DL-0001{Enter}');
    expect(
      await screen.findByText(
        `“Dune” checked out to Ada Lovelace, due ${formatDate('2026-12-16T17:00:00.000Z')}.`,
      ),
    ).toBeTruthy();
    await waitFor(() => expect(barcodeBox().value).toBe(''));
    expect(document.activeElement).toBe(barcodeBox());
    expect(posts(calls)).toEqual([{ path: '/desk/loans', body: { barcode: 'DL-0001' } }]);
  });

  it('sends the student’s e-mail with a check-out, and says whose it is when the server asks', async () => {
    const user = userEvent.setup();
    let asked = false;
    const calls = desk({
      'POST /desk/loans': (call) => {
        if (!(call.body as { email?: string }).email) {
          asked = true;
          return {
            status: 409,
            body: {
              success: false,
              message: 'Two people have reserved this book: give the student’s e-mail.',
            },
          };
        }
        return { body: { success: true, loan: loan({ dueAt: '2026-12-16T17:00:00.000Z' }) } };
      },
    });
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    await user.click(barcodeBox());
    await user.keyboard('DL-0001{Enter}');
    const alert = await screen.findByText(
      'DL-0001: Two people have reserved this book: give the student’s e-mail.',
    );
    expect(alert.getAttribute('role')).toBe('alert');
    expect(asked).toBe(true);
    // The refused code stays, selected, so a new scan would replace it.
    expect(barcodeBox().value).toBe('DL-0001');
    expect(document.activeElement).toBe(barcodeBox());

    await user.type(screen.getByLabelText(/Student e-mail/), 'ada@example.edu');
    await user.click(screen.getByRole('button', { name: 'Check out' }));
    expect(await screen.findByText(/“Dune” checked out to Ada Lovelace/)).toBeTruthy();
    expect((screen.getByLabelText(/Student e-mail/) as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(barcodeBox());
    expect(posts(calls).at(-1)).toEqual({
      path: '/desk/loans',
      body: { barcode: 'DL-0001', email: 'ada@example.edu' },
    });
  });

  it('returns with the Return button, then Enter goes on returning', async () => {
    const user = userEvent.setup();
    const calls = desk({
      'POST /desk/returns': (call) => {
        const { barcode } = call.body as { barcode: string };
        if (barcode === 'DL-0404')
          return { status: 404, body: { success: false, message: 'No copy has this barcode.' } };
        return {
          body: {
            success: true,
            loan: loan({
              status: 'returned',
              returnedAt: new Date().toISOString(),
              copy: { barcode, location: '' },
            }),
          },
        };
      },
    });
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    await user.type(barcodeBox(), 'DL-0001');
    await user.click(screen.getByRole('button', { name: 'Return' }));
    expect(await screen.findByText('“Dune” (copy DL-0001) returned by Ada Lovelace.')).toBeTruthy();
    expect(document.activeElement).toBe(barcodeBox());
    expect(screen.getByText('Return', { selector: 'strong' })).toBeTruthy();

    await user.keyboard('DL-0002{Enter}');
    expect(await screen.findByText('“Dune” (copy DL-0002) returned by Ada Lovelace.')).toBeTruthy();
    await user.keyboard('DL-0404{Enter}');
    expect(await screen.findByText('DL-0404: No copy has this barcode.')).toBeTruthy();
    expect(posts(calls)).toEqual([
      { path: '/desk/returns', body: { barcode: 'DL-0001' } },
      { path: '/desk/returns', body: { barcode: 'DL-0002' } },
      { path: '/desk/returns', body: { barcode: 'DL-0404' } },
    ]);
  });

  it('asks for a barcode before sending anything', async () => {
    const user = userEvent.setup();
    const calls = desk();
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    await user.click(screen.getByRole('button', { name: 'Check out' }));
    expect(await screen.findByText('Scan or type the barcode')).toBeTruthy();
    expect(document.activeElement).toBe(barcodeBox());
    expect(posts(calls)).toEqual([]);
  });
});
