import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ItemCard, ItemCardBadge } from './item-card.tsx';

const ITEM = { title: 'Tides and Currents', authors: ['Ada Quill'], year: 2001 };

function renderInRouter(element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '/', element }], { initialEntries: ['/'] });
  render(<RouterProvider router={router} />);
}

describe('ItemCard', () => {
  it('is one link to a screen, with everything it says inside', () => {
    renderInRouter(
      <ItemCard item={ITEM} to="/userprofile/openlibrary?item=1">
        <ItemCardBadge>Same author</ItemCardBadge>
      </ItemCard>,
    );
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('/userprofile/openlibrary?item=1');
    expect(link.textContent).toContain('Tides and Currents');
    expect(link.textContent).toContain('Ada Quill · 2001');
    expect(link.textContent).toMatch(/Same author$/);
  });

  it('opens a web page in a new tab and says so', () => {
    renderInRouter(<ItemCard item={ITEM} href="https://openlibrary.org/works/OL1W" />);
    const link = screen.getByRole('link');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.textContent).toContain('(opens in a new tab)');
  });

  it('is a button for an action on the screen, and plain without one', async () => {
    const onOpen = vi.fn();
    renderInRouter(
      <>
        <ItemCard item={ITEM} onOpen={onOpen} />
        <ItemCard item={{ ...ITEM, authors: [], year: null }} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: /Tides and Currents/ }));
    expect(onOpen).toHaveBeenCalledOnce();
    expect(screen.getByText('Unknown author')).toBeTruthy();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });
});
