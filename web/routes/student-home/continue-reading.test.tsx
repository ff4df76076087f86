import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecentReading } from '#contract/http/reading.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { StudentHomePage } from './student-home-page.tsx';

const BOOK = {
  id: '11111111-1111-4111-8111-111111111111',
  type: 'book' as const,
  title: 'Frankenstein',
  authors: ['Mary Shelley'],
  year: 1818,
  subjects: [],
  hasContent: true,
};

function home(recent: RecentReading) {
  mockApi({
    'GET /reading/recent': () => ({ body: recent }),
    'GET /users/reservations': () => ({ body: { payload: [] } }),
    'GET /users/requests': () => ({ body: { payload: [] } }),
  });
  renderScreen(<StudentHomePage />, '/userprofile', testUser());
}

describe('Continue reading on the student home', () => {
  it('lists the books read last, each opening at its page', async () => {
    home({
      books: [
        { item: BOOK, page: 37, pageCount: 120, readAt: '2026-11-25T10:00:00.000Z' },
        {
          item: {
            ...BOOK,
            id: '22222222-2222-4222-8222-222222222222',
            title: 'Dracula',
            authors: [],
          },
          page: 1,
          pageCount: 4,
          readAt: '2026-11-24T10:00:00.000Z',
        },
      ],
    });
    const section = (
      await screen.findByRole('heading', { level: 2, name: 'Continue reading' })
    ).closest('section')!;
    const links = within(section).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]!.textContent).toContain('Frankenstein');
    expect(links[0]!.textContent).toContain('Mary Shelley');
    expect(links[0]!.textContent).toContain('Page 37 of 120');
    expect(links[0]!.getAttribute('href')).toBe(`/userprofile/openlibrary?item=${BOOK.id}&page=37`);
    expect(links[1]!.textContent).toContain('Page 1 of 4');
  });

  it('is not shown before the student has read anything', async () => {
    home({ books: [] });
    await screen.findByRole('heading', { name: /Welcome/ });
    // The list has been answered by the time the loans have.
    await screen.findByRole('heading', { level: 2, name: 'My loans' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Continue reading' })).toBeNull();
  });
});
