import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { StudentHomePage } from './student-home-page.tsx';

const WAITING = /waiting for a librarian’s approval/;

describe('the student home', () => {
  it('tells a faculty sign-up waiting for approval that it is one, and nobody else', async () => {
    mockApi({
      'GET /users/reservations': () => ({ body: { payload: [] } }),
      'GET /users/requests': () => ({ body: { payload: [] } }),
    });
    renderScreen(<StudentHomePage />, '/userprofile', testUser({ facultyRequest: 'waiting' }));
    const notice = await screen.findByText(WAITING);
    expect(notice.getAttribute('role')).toBe('status');
  });

  it('shows no such notice to a student', async () => {
    mockApi({
      'GET /users/reservations': () => ({ body: { payload: [] } }),
      'GET /users/requests': () => ({ body: { payload: [] } }),
    });
    renderScreen(<StudentHomePage />, '/userprofile', testUser());
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(screen.queryByText(WAITING)).toBeNull();
  });
});
