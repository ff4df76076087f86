import { waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REQUEST_STATUSES,
  RESOURCE_TYPES,
  type ResourceRequestRecord,
} from '#contract/http/requests.ts';
import {
  RESERVATION_STATUSES,
  type DeskReservation,
  type ReservationRecord,
} from '#contract/http/reservations.ts';
import { DeskReservationItem, mailtoHref } from '../../routes/library-desk/desk-reservation.tsx';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import {
  assertRenders,
  expectInert,
  expectShown,
  hostileText,
  hostileWords,
} from '../../test/hostile-text.ts';
import { formatDate, formatDateTime } from './format.ts';
import { MyRequests } from './my-requests.tsx';
import { MyReservations } from './my-reservations.tsx';

/*
 * Requests and reservations as records: the person's own (on the request and reservation screens
 * and the student home) and the library desk's, which adds who holds each one with mail and phone
 * links built from their profile. Property: hostile titles, authors, reasons, ids, names and dates
 * show as given and never as markup; the mail link writes to exactly that address (nothing in it
 * can add a recipient, a subject or a body) and the phone link holds only digits and '+'.
 */

/** A date as the server sends it, or text that is not one. */
const isoOrText = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  hostileText,
);

const request = (index: number): fc.Arbitrary<ResourceRequestRecord> =>
  fc.record(
    {
      _id: fc.constant(`req-${index}`),
      student: hostileWords,
      title: hostileWords,
      description: hostileText,
      resourceType: fc.constantFrom(...RESOURCE_TYPES),
      institutionName: hostileWords,
      status: fc.constantFrom(...REQUEST_STATUSES),
      statusReason: hostileWords,
      statusChangedAt: isoOrText,
      supporters: fc.nat(100),
      mine: fc.boolean(),
      supportedByMe: fc.boolean(),
      createdAt: isoOrText,
    },
    {
      requiredKeys: [
        '_id',
        'student',
        'title',
        'resourceType',
        'institutionName',
        'status',
        'supporters',
        'mine',
        'supportedByMe',
        'createdAt',
      ],
    },
  );

const reservation = (index: number): fc.Arbitrary<ReservationRecord> =>
  fc.record({
    reservationId: hostileWords.map((id) => `${id}#${index}`),
    status: fc.constantFrom(...RESERVATION_STATUSES),
    date: hostileText,
    formattedDate: hostileWords,
    timeSlot: hostileWords,
    slotStartsAt: isoOrText,
    expiresAt: isoOrText,
    createdAt: isoOrText,
    book: fc.record({
      id: hostileText,
      // Unique: the check below finds each reservation by its title.
      title: hostileWords.map((title) => `${title}#${index}`),
      author: hostileWords,
      genre: hostileText,
      coverImage: hostileText,
    }),
  });

const list = <T,>(item: (index: number) => fc.Arbitrary<T>) =>
  fc
    .integer({ min: 1, max: 4 })
    .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => item(index))));

/** Addresses as an identity provider or an old account may hold them. */
const email = fc.oneof(
  fc.emailAddress(),
  hostileWords,
  fc.constantFrom(
    'ada@example.edu?bcc=all@example.edu&subject=hi&body=x',
    'ada@example.edu#frag',
    'a%40b@example.edu',
    'ada@example.edu\r\nBcc: all@example.edu',
    'javascript:alert(1)//@example.edu',
  ),
);

const wellFormed = (text: string) => text.replace(/[\uD800-\uDFFF]/gu, '\uFFFD');

const deskCase = fc.record({
  status: fc.constantFrom(...RESERVATION_STATUSES),
  reservationId: hostileWords,
  expiresAt: hostileText,
  book: fc.record({
    id: fc.constant('b1'),
    title: hostileWords,
    author: hostileWords,
    genre: hostileText,
    coverImage: hostileText,
  }),
  holder: fc.record({ name: hostileWords, email, phoneNumber: hostileWords }),
});

describe('records (fast-check)', () => {
  it('formats any date without throwing: the date, or the text as it came', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const invalid = Number.isNaN(new Date(text).getTime());
        if (invalid) expect([formatDate(text), formatDateTime(text)]).toEqual([text, text]);
        else expect(formatDate(text)).not.toBe('');
      }),
      { numRuns: 200 },
    );
  });

  it('shows the person’s hostile requests as text', async () => {
    await assertRenders(list(request), async (requests) => {
      mockApi({ 'GET /users/requests': () => ({ body: { payload: requests } }) });
      renderScreen(<MyRequests />, '/', testUser());
      await waitFor(() => expect(document.querySelectorAll('li')).toHaveLength(requests.length));
      const items = document.querySelectorAll('li');
      requests.forEach((sent, index) => {
        const item = items[index]!;
        expect(item.querySelector('h3')?.textContent).toBe(sent.title);
        expectShown([formatDate(sent.createdAt)], item);
        if (sent.status === 'rejected' && sent.statusReason)
          expectShown([`Reason: ${sent.statusReason}`], item);
        expect(item.querySelector('time')?.getAttribute('datetime')).toBe(sent.createdAt);
      });
      expectInert();
    });
  });

  it('shows the person’s hostile reservations as text', async () => {
    await assertRenders(list(reservation), async (reservations) => {
      mockApi({ 'GET /users/reservations': () => ({ body: { payload: reservations } }) });
      renderScreen(<MyReservations allowCancel />, '/', testUser());
      await waitFor(() =>
        expect(document.querySelectorAll('li')).toHaveLength(reservations.length),
      );
      for (const sent of reservations) {
        const item = [...document.querySelectorAll('li')].find(
          (candidate) => candidate.querySelector('h3')?.textContent === sent.book.title,
        );
        expect(item, sent.book.title).toBeDefined();
        expectShown(
          [
            `${sent.book.author} · Reservation ${sent.reservationId}`,
            `Pickup: ${sent.formattedDate}, ${sent.timeSlot}`,
          ],
          item,
        );
        if (sent.status === 'active')
          expectShown(
            [formatDateTime(sent.expiresAt), `the reservation of ${sent.book.title}`],
            item,
          );
      }
      expectInert();
    });
  });

  it('writes mail links to exactly the address, with no header of its own', () => {
    fc.assert(
      fc.property(email, (address) => {
        const href = mailtoHref(address);
        expect(href.startsWith('mailto:')).toBe(true);
        const rest = href.slice('mailto:'.length);
        expect(rest).not.toMatch(/[?#&\s]/);
        expect(decodeURIComponent(rest)).toBe(wellFormed(address));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a query in an address from adding recipients (regression)', () => {
    expect(mailtoHref('ada@example.edu?bcc=all@example.edu')).toBe(
      'mailto:ada@example.edu%3Fbcc%3Dall@example.edu',
    );
    expect(mailtoHref('x\uD800@example.edu')).toBe('mailto:x%EF%BF%BD@example.edu');
  });

  it('shows the holder and the book as text, with safe mail and phone links', async () => {
    await assertRenders(deskCase, ({ status, reservationId, expiresAt, book, holder }) => {
      const reservation: DeskReservation = {
        reservationId,
        status,
        date: '2026-03-02',
        formattedDate: 'Monday, March 2',
        timeSlot: '9:00-9:30 AM',
        slotStartsAt: '2026-03-02T09:00:00.000Z',
        expiresAt,
        createdAt: '2026-03-01T08:00:00.000Z',
        book,
        holder,
      };
      renderScreen(
        <ul>
          <DeskReservationItem
            reservation={reservation}
            moves={['collected', 'no_show', 'returned']}
            headingLevel={3}
            onChanged={() => {}}
          />
        </ul>,
        '/desk',
        testUser({ role: 'librarian' }),
      );
      const item = document.querySelector('li')!;
      expect(item.querySelector('h3')?.textContent).toBe(holder.name);
      expectShown(
        [holder.email, holder.phoneNumber, `${book.title} by ${book.author} · ${reservationId}`],
        item,
      );
      const [mail, phone] = item.querySelectorAll('a');
      expect(mail?.getAttribute('href')).toBe(mailtoHref(holder.email));
      expect(phone?.getAttribute('href')).toMatch(/^tel:[\d+]*$/);
      expectInert({ schemes: ['mailto:', 'tel:'] });
    });
  });
});
