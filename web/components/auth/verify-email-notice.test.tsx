import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { VerifyEmailNotice } from './verify-email-notice.tsx';

const unverified = testUser({ emailVerified: false });

describe('the e-mail verification notice', () => {
  it('says where the link went and sends it again from the keyboard, saying so', async () => {
    const calls = mockApi({
      'POST /users/verification-email': () => ({
        body: { success: true, message: 'We sent a new link to ada@example.edu.' },
      }),
      'GET /users/me': () => ({ body: { user: unverified } }),
    });
    renderScreen(<VerifyEmailNotice />, '/userprofile', unverified);
    expect(screen.getByRole('heading', { name: 'Verify your e-mail address' })).toBeTruthy();
    expect(screen.getByText(/we sent a link to/).textContent).toContain(
      'we sent a link to ada@example.edu. Open it within 24 hours',
    );

    const user = userEvent.setup();
    await user.tab();
    const button = screen.getByRole('button', { name: 'Send the link again' });
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    const sent = await screen.findByText('We sent a new link to ada@example.edu.');
    expect(sent.getAttribute('role')).toBe('status');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('shows the server’s refusal when asked too often', async () => {
    mockApi({
      'POST /users/verification-email': () => ({
        status: 429,
        body: { success: false, message: 'Too many attempts. Please try again in 60 minutes.' },
      }),
    });
    renderScreen(<VerifyEmailNotice />, '/userprofile', unverified);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send the link again' }));
    const refused = await screen.findByText('Too many attempts. Please try again in 60 minutes.');
    expect(refused.getAttribute('role')).toBe('alert');
  });

  it('confirms a link that worked, and explains one that did not', async () => {
    mockApi({});
    renderScreen(
      <VerifyEmailNotice />,
      '/userprofile?verified=email',
      testUser({ emailVerified: true }),
    );
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^Your e-mail address is verified\. You can now reserve books/,
    );
  });

  it('explains an expired link above the button that sends a new one', async () => {
    mockApi({});
    renderScreen(
      <VerifyEmailNotice />,
      '/facultyprofile?verified=email&error=TOKEN_EXPIRED',
      unverified,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That verification link has expired. Send yourself a new one below.',
    );
    expect(screen.getByRole('button', { name: 'Send the link again' })).toBeTruthy();
  });

  it('shows nothing to a verified account, or one whose server does not say', () => {
    mockApi({});
    renderScreen(<VerifyEmailNotice />, '/userprofile', testUser({ emailVerified: true }));
    expect(screen.queryByRole('heading')).toBeNull();
    renderScreen(<VerifyEmailNotice />, '/userprofile', testUser());
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
