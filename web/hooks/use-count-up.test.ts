import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountUp } from './use-count-up.ts';

describe('useCountUp', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts at 0, climbs, and lands exactly on the target at the end', () => {
    const { result } = renderHook(() => useCountUp(100, 2000));
    expect(result.current).toBe(0);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current).toBeGreaterThan(0);
    expect(result.current).toBeLessThan(100);
    act(() => void vi.advanceTimersByTime(1100));
    expect(result.current).toBe(100);
    act(() => void vi.advanceTimersByTime(1000));
    expect(result.current).toBe(100);
  });

  it('shows the target at once for people who prefer reduced motion', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce') }));
    const { result } = renderHook(() => useCountUp(10, 2000));
    expect(result.current).toBe(10);
  });
});
