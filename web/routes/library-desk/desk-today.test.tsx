import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { DeskToday } from './desk-today.tsx';

describe('what needs the desk today', () => {
  it('shows the numbers, each a link to where it is done', async () => {
    mockApi({
      'GET /insights/today': () => ({
        body: { pickupsWaiting: 4, overdueLoans: 2, openRequests: 7, openReports: 3 },
      }),
    });
    renderScreen(<DeskToday />, '/desk', testUser({ role: 'librarian' }));
    const nav = await screen.findByRole('navigation', { name: 'Needs action today' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['4 pickups waiting today', '#desk-pickups-title'],
      ['2 overdue loans', '/desk?loans=overdue'],
      ['3 open reports', '/desk/moderation'],
      ['7 open requests', '/requests?status=pending'],
    ]);
  });
});
