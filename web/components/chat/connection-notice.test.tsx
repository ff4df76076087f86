import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONNECTING_NOTICE_DELAY_MS, ConnectionNotice } from './connection-notice.tsx';

describe('the connection notice', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says nothing while a first connection is quick, so nothing below it moves', () => {
    const { rerender } = render(<ConnectionNotice connection={{ status: 'connecting' }} />);
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => vi.advanceTimersByTime(CONNECTING_NOTICE_DELAY_MS - 100));
    rerender(<ConnectionNotice connection={{ status: 'connected' }} />);
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says Connecting… when a first connection is slow, and nothing once connected', () => {
    const { rerender } = render(<ConnectionNotice connection={{ status: 'connecting' }} />);
    act(() => vi.advanceTimersByTime(CONNECTING_NOTICE_DELAY_MS));
    expect(screen.getByRole('status').textContent).toBe('Connecting…');
    rerender(<ConnectionNotice connection={{ status: 'connected' }} />);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says Reconnecting… at once when the connection drops', () => {
    render(<ConnectionNotice connection={{ status: 'reconnecting' }} />);
    expect(screen.getByRole('status').textContent).toBe('Reconnecting…');
  });

  it('says why the server refused the connection', () => {
    render(<ConnectionNotice connection={{ status: 'refused', message: 'Sign in to chat.' }} />);
    expect(screen.getByRole('alert').textContent).toBe('Sign in to chat.');
  });
});
