import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { MaterialOpensSection } from './material-opens.tsx';

describe('how often my materials were opened', () => {
  it('shows weekly opens of a material, and only "fewer than 5" below the threshold', async () => {
    mockApi({
      'GET /insights/my-materials': () => ({
        body: {
          period: 365,
          materials: [
            {
              itemId: 'm1',
              title: 'Week 1 Notes',
              weeks: [
                { week: '2026-11-16', opens: 7 },
                { week: '2026-11-23', opens: 5 },
              ],
            },
            { itemId: 'm2', title: 'Week 2 Slides', weeks: null },
          ],
        },
      }),
    });
    renderScreen(<MaterialOpensSection />, '/facultyprofile', testUser({ role: 'faculty' }));
    const section = await screen.findByRole('region', {
      name: 'How often your materials were opened',
    });
    expect(within(section).getByText('12 opens in 2 weeks')).toBeTruthy();
    expect(within(section).getByRole('rowheader', { name: '2026-11-16' })).toBeTruthy();
    expect(within(section).getByText('Opened by fewer than 5 people')).toBeTruthy();
  });

  it('says nothing when the person has published nothing', async () => {
    const calls = mockApi({
      'GET /insights/my-materials': () => ({ body: { period: 365, materials: [] } }),
    });
    renderScreen(<MaterialOpensSection />, '/facultyprofile', testUser({ role: 'faculty' }));
    await expect.poll(() => calls.length).toBe(1);
    expect(screen.queryByRole('region')).toBeNull();
  });
});
