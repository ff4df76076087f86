import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ReservationRecord } from '#contract/http/reservations.ts';
import { EMAIL_NOT_VERIFIED_CODE, emailNotVerifiedMessage } from '#contract/http/users.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { type ApiAnswer, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { ReservationPage } from './reservation-page.tsx';

const BOOKS = [
  {
    _id: 'book-dune',
    title: 'Dune',
    author: 'Frank Herbert',
    coverImage: '/covers/dune.jpg',
    genre: 'Science fiction',
    available: true,
    description: 'A desert planet.',
    copies: 3,
    freeCopies: 2,
  },
  {
    _id: 'book-neuromancer',
    title: 'Neuromancer',
    author: 'William Gibson',
    coverImage: '/covers/neuromancer.jpg',
    genre: 'Cyberpunk',
    available: false,
    description: 'The matrix.',
    copies: 1,
    freeCopies: 0,
  },
];

const HOLDS = [
  {
    holdId: 'HOLD-1',
    status: 'offered',
    position: null,
    estimatedDays: null,
    offerExpiresAt: '2026-03-04T10:00:00.000Z',
    reservationId: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    book: { id: 'book-solaris', title: 'Solaris', author: 'Stanisław Lem', coverImage: '' },
  },
  {
    holdId: 'HOLD-2',
    status: 'queued',
    position: 2,
    estimatedDays: 21,
    offerExpiresAt: null,
    reservationId: null,
    createdAt: '2026-03-01T11:00:00.000Z',
    book: {
      id: 'book-neuromancer',
      title: 'Neuromancer',
      author: 'William Gibson',
      coverImage: '',
    },
  },
];

const DAYS = {
  timeZone: 'Europe/London',
  days: Array.from({ length: 7 }, (_, index) => ({
    date: `2026-03-0${index + 2}`,
    formattedDate: `Day ${index + 1}`,
    // Today's first two slots are already over.
    slots: RESERVATION_TIME_SLOTS.map((timeSlot, slot) => ({
      timeSlot,
      open: index > 0 || slot >= 2,
    })),
  })),
};

const RESERVATION: ReservationRecord = {
  reservationId: 'RES-0042',
  status: 'active',
  date: '2026-03-02',
  formattedDate: 'Day 1',
  timeSlot: '11:00-11:30 AM',
  slotStartsAt: '2026-03-02T11:00:00.000Z',
  expiresAt: '2026-03-03T11:00:00.000Z',
  createdAt: '2026-03-02T08:00:00.000Z',
  book: {
    id: 'book-dune',
    title: 'Dune',
    author: 'Frank Herbert',
    genre: 'Science fiction',
    coverImage: '/covers/dune.jpg',
  },
};

function setUp(
  reserve: () => ApiAnswer = () => ({ body: { success: true, reservation: RESERVATION } }),
  path = '/offline-book-service',
) {
  const calls = mockApi({
    'GET /users/reservation-books': (call) => {
      // As the server answers: one book by id, words of the title or author, free ones, a page.
      const words = (call.search.get('q') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const found = BOOKS.filter(
        (book) =>
          (!call.search.get('id') || book._id === call.search.get('id')) &&
          words.every((word) => `${book.title} ${book.author}`.toLowerCase().includes(word)) &&
          (call.search.get('availableOnly') !== 'true' || book.available),
      );
      const pageSize = Number(call.search.get('pageSize') ?? 200);
      const page = Number(call.search.get('page') ?? 1);
      return {
        body: {
          success: true,
          payload: found.slice((page - 1) * pageSize, page * pageSize),
          total: found.length,
          page,
          pageSize,
        },
      };
    },
    'GET /users/reservation-days': () => ({ body: DAYS }),
    'GET /users/reservations': () => ({ body: { payload: [] } }),
    'GET /users/holds': () => ({ body: { payload: HOLDS } }),
    'POST /users/holds': () => ({
      body: {
        success: true,
        hold: { ...HOLDS[1], holdId: 'HOLD-9', position: 3, estimatedDays: 21 },
      },
    }),
    'POST /users/reservation': reserve,
  });
  renderScreen(<ReservationPage />, path, testUser());
  return calls;
}

const currentStep = () => document.querySelector('[aria-current="step"]')?.textContent;

async function chooseDune() {
  fireEvent.click(await screen.findByRole('radio', { name: 'Dune' }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Choose Date & Time' });
}

describe('reservation screen', () => {
  it('lists one’s waiting lists, offers a book with no free copy’s list, and says where one stands', async () => {
    const calls = setUp();
    const lists = await screen.findByRole('region', { name: 'Your waiting lists' });
    await waitFor(() => expect(lists.textContent).toContain('A copy is waiting for you'));
    expect(lists.textContent).toContain(
      'You are number 2 on the waiting list; a copy should come up in about 21 days.',
    );
    expect(
      (await screen.findByRole('link', { name: 'Choose a pickup slot' })).getAttribute('href'),
    ).toBe('/offline-book-service?book=book-solaris');

    fireEvent.click(
      await screen.findByRole('button', { name: 'Join the waiting list for Neuromancer' }),
    );
    expect(
      await screen.findByText(
        'You are number 3 on the waiting list; a copy should come up in about 21 days.',
      ),
    ).toBeTruthy();
    expect(
      calls.find((call) => call.method === 'POST' && call.path === '/users/holds')?.body,
    ).toEqual({
      bookId: 'book-neuromancer',
    });
  });

  it('finds books by words, narrows to free copies, and keeps the choice while searching on', async () => {
    const calls = setUp();
    expect(await screen.findByText('2 books to choose from.')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Dune' }));

    fireEvent.change(screen.getByLabelText('Find a book'), { target: { value: ' gibson ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('1 book matches “gibson”.')).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'Dune' })).toBeNull();
    // The chosen book stays chosen, and says so, though it is not on this page.
    expect(screen.getByText('Dune', { selector: 'strong' })).toBeTruthy();

    fireEvent.click(screen.getByLabelText('Only books with a free copy'));
    expect(
      await screen.findByText(
        'No book you can reserve matches “gibson” with a copy free now. Try fewer or other words.',
      ),
    ).toBeTruthy();
    const asked = calls.filter((call) => call.path === '/users/reservation-books').at(-1)!;
    expect(Object.fromEntries(asked.search)).toEqual({
      q: 'gibson',
      availableOnly: 'true',
      pageSize: '12',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Choose Date & Time' })).toBeTruthy();
    expect(screen.getByText('Dune', { selector: 'strong' })).toBeTruthy();
  });

  it('opens at the slots with a book linked from the catalogue, or says it cannot be reserved', async () => {
    setUp(undefined, '/offline-book-service?book=book-dune');
    expect(await screen.findByRole('heading', { name: 'Choose Date & Time' })).toBeTruthy();
    expect(currentStep()).toContain('Choose Date & Time');
    expect(screen.getByText('Dune', { selector: 'strong' })).toBeTruthy();
  });

  it('says so when a linked book has no copy to reserve', async () => {
    setUp(undefined, '/offline-book-service?book=book-unknown');
    expect(
      await screen.findByText('That book has no copy you can reserve here. Choose another below.'),
    ).toBeTruthy();
    expect(currentStep()).toContain('Select a Book');
  });

  it('shows the three steps and will not continue with an unavailable book', async () => {
    setUp();
    const neuromancer = (await screen.findByRole('radio', {
      name: 'Neuromancer',
    })) as HTMLInputElement;
    expect(neuromancer.disabled).toBe(true);
    expect(screen.getByText(/Unavailable · 0 of 1 copy free/)).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Cover of Dune' })).toBeTruthy();
    expect(currentStep()).toContain('Select a Book');

    fireEvent.click(neuromancer);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Please select an available book to continue.',
    );
    expect(currentStep()).toContain('Select a Book');
  });

  it('asks for a slot before confirming, disables slots that are over, and goes back', async () => {
    const calls = setUp();
    await chooseDune();
    expect(currentStep()).toContain('Choose Date & Time');
    expect(
      screen.getByText('A reservation is held for 24 hours from the selected time.'),
    ).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Choose Date & Time');
    expect((screen.getByRole('radio', { name: /9:00-9:30 AM/ }) as HTMLInputElement).disabled).toBe(
      true,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('alert').textContent).toBe('Please select a book and time slot');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(currentStep()).toContain('Select a Book');
    expect((screen.getByRole('radio', { name: 'Dune' }) as HTMLInputElement).checked).toBe(true);
  });

  it('reserves, confirms, and "Reserve Another Book" starts over with fresh books', async () => {
    const calls = setUp();
    await chooseDune();
    fireEvent.click(screen.getByRole('radio', { name: '11:00-11:30 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByRole('heading', { name: 'Reservation successful!' })).toBeTruthy();
    expect(screen.getByText('RES-0042')).toBeTruthy();
    expect(currentStep()).toContain('Confirmation');
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(post?.body).toMatchObject({
      user: { email: 'ada@example.edu', firstName: 'Ada' },
      book: { id: 'book-dune', title: 'Dune' },
      reservation: { date: '2026-03-02', formattedDate: 'Day 1', timeSlot: '11:00-11:30 AM' },
    });

    const booksLoads = () =>
      calls.filter((call) => call.path === '/users/reservation-books').length;
    const before = booksLoads();
    fireEvent.click(screen.getByRole('button', { name: 'Reserve Another Book' }));
    expect(currentStep()).toContain('Select a Book');
    await waitFor(() => expect(booksLoads()).toBeGreaterThan(before));
    expect((screen.getByRole('radio', { name: 'Dune' }) as HTMLInputElement).checked).toBe(false);
  });

  it("says the reservation failed with the server's reason", async () => {
    setUp(() => ({
      status: 409,
      body: { success: false, message: 'No copy of this book is free right now.' },
    }));
    await chooseDune();
    fireEvent.click(screen.getByRole('radio', { name: '11:00-11:30 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Reservation failed. Please try again. No copy of this book is free right now.',
    );
    expect(currentStep()).toContain('Choose Date & Time');
  });

  it('tells an account whose e-mail is not verified only what to do', async () => {
    const message = emailNotVerifiedMessage('ada@example.edu');
    setUp(() => ({
      status: 403,
      body: { success: false, message, code: EMAIL_NOT_VERIFIED_CODE },
    }));
    await chooseDune();
    fireEvent.click(screen.getByRole('radio', { name: '11:00-11:30 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });

  it('retries a lost answer with the same idempotency key', async () => {
    const answers: ApiAnswer[] = [
      'network-error',
      { body: { success: true, reservation: RESERVATION } },
    ];
    const calls = setUp(() => answers.shift() ?? 'network-error');
    await chooseDune();
    fireEvent.click(screen.getByRole('radio', { name: '11:00-11:30 AM' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Reservation failed. Please try again.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('heading', { name: 'Reservation successful!' });
    const keys = calls
      .filter((call) => call.method === 'POST')
      .map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('lists the person’s reservations and cancels an active one after confirming', async () => {
    const calls = mockApi({
      'GET /users/reservation-books': () => ({ body: { success: true, payload: BOOKS } }),
      'GET /users/reservation-days': () => ({ body: DAYS }),
      'GET /users/reservations': () => ({
        body: {
          payload: [{ ...RESERVATION, reservationId: 'RES-0001', status: 'returned' }, RESERVATION],
        },
      }),
      'DELETE /users/reservations/RES-0042': () => ({
        body: { success: true, reservation: { ...RESERVATION, status: 'cancelled' } },
      }),
    });
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    renderScreen(<ReservationPage />, '/offline-book-service', testUser());
    const items = await screen.findAllByText(/Reservation RES-/);
    // Active first, whatever order the server sent.
    expect(items.map((item) => item.textContent)).toEqual([
      'Frank Herbert · Reservation RES-0042',
      'Frank Herbert · Reservation RES-0001',
    ]);
    expect(screen.getByText('Returned')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Cancel/ }));
    expect(confirm).toHaveBeenCalledOnce();
    expect(await screen.findByText('Your reservation of “Dune” is cancelled.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });
});
