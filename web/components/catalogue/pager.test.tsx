import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Pager, visiblePages } from './pager.tsx';

describe('pager', () => {
  it('shows the first, the last and two pages either side of the current one', () => {
    expect(visiblePages(1, 1)).toEqual([1]);
    expect(visiblePages(5, 10)).toEqual([1, 3, 4, 5, 6, 7, 10]);
    expect(visiblePages(1, 10)).toEqual([1, 2, 3, 10]);
  });

  it('says "Page x of y", keeps moves within bounds and disables what cannot move', () => {
    const onChange = vi.fn();
    render(<Pager page={1} count={3} onChange={onChange} label="Pages" />);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onChange.mock.calls).toEqual([[2], [3]]);
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('shows nothing for a single page', () => {
    const { container } = render(<Pager page={1} count={1} onChange={() => {}} label="Pages" />);
    expect(container.textContent).toBe('');
  });
});
