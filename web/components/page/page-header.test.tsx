import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageHeader, pageStyles } from './page-header.tsx';

describe('page header', () => {
  it('shows the title as the one h1, then the lead and the actions', () => {
    const { container } = render(
      <PageHeader
        id="desk-title"
        eyebrow="Librarians"
        title="Library desk"
        lead="Hand out reserved copies."
        actions={<button type="button">Print</button>}
      />,
    );
    const heading = screen.getByRole('heading', { level: 1, name: 'Library desk' });
    expect(heading.id).toBe('desk-title');
    expect(container.querySelectorAll('h1')).toHaveLength(1);
    expect([...container.children].map((child) => child.textContent)).toEqual([
      'Librarians',
      'Library desk',
      'Hand out reserved copies.',
      'Print',
    ]);
    expect(screen.getByText('Hand out reserved copies.').className).toBe(pageStyles.lead);
  });

  it('renders only the title when nothing else is given', () => {
    const { container } = render(<PageHeader title="Reader" />);
    expect(container.innerHTML).toBe(`<h1 class="${pageStyles.title}">Reader</h1>`);
  });

  it('gives a prominent header the larger lead', () => {
    render(<PageHeader title="Welcome, Ada" lead="Find books." prominent />);
    expect(screen.getByText('Find books.').className).toBe(
      `${pageStyles.lead} ${pageStyles.prominent}`,
    );
  });
});
