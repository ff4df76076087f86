import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COVER_COLOURS, Cover, coverColour } from './cover.tsx';

describe('Cover', () => {
  it('derives one colour per title, the same every time', () => {
    expect(coverColour('Dune')).toBe(coverColour('Dune'));
    expect(coverColour(' dune ')).toBe(coverColour('Dune'));
    const colours = new Set(['Dune', 'Emma', 'Ulysses', 'Beloved', 'Middlemarch'].map(coverColour));
    expect(colours.size).toBeGreaterThan(2);
    for (const title of ['', 'a', 'Frankenstein', '😀'.repeat(50)]) {
      expect(coverColour(title)).toBeGreaterThanOrEqual(0);
      expect(coverColour(title)).toBeLessThan(COVER_COLOURS);
    }
  });

  it('shows the image lazily at its size, with the alt text asked for', () => {
    const { container } = render(
      <Cover
        title="Dune"
        authors="Frank Herbert"
        url="/covers/dune.jpg"
        size="large"
        alt="Cover of Dune"
      />,
    );
    const image = container.querySelector('img')!;
    expect(image.getAttribute('alt')).toBe('Cover of Dune');
    expect(image.getAttribute('loading')).toBe('lazy');
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['128', '192']);
  });

  it('generates a cover when there is no image, or only one from another scheme', () => {
    for (const url of [undefined, '', 'javascript:alert(1)', 'data:image/png;base64,AAAA']) {
      const { container, unmount } = render(
        <Cover title="Dune" authors={['Frank Herbert', 'Brian Herbert']} url={url} />,
      );
      expect(container.querySelector('img')).toBeNull();
      const generated = container.querySelector<HTMLElement>('[data-generated-cover]')!;
      expect(generated.getAttribute('aria-hidden')).toBe('true');
      expect(generated.textContent).toBe('DuneFrank Herbert, Brian Herbert');
      expect(generated.dataset.colour).toBe(String(coverColour('Dune')));
      unmount();
    }
  });

  it('gives way to a generated cover when the image fails, and tries a new address again', () => {
    const { container, rerender } = render(<Cover title="Dune" authors="" url="/covers/x.jpg" />);
    fireEvent.error(container.querySelector('img')!);
    expect(container.querySelector('img')).toBeNull();
    // No author: the title alone.
    expect(container.querySelector('[data-generated-cover]')?.textContent).toBe('Dune');
    rerender(<Cover title="Dune" authors="" url="/covers/y.jpg" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/covers/y.jpg');
  });
});
