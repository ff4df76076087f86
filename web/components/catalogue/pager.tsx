import { Button } from '../ui/button.tsx';
import styles from '../../routes/library-search/library.module.css';

/** Page numbers around the current one: first, last and two either side. */
export function visiblePages(current: number, count: number): number[] {
  const pages = new Set([1, count]);
  for (let page = current - 2; page <= current + 2; page += 1)
    if (page >= 1 && page <= count) pages.add(page);
  return [...pages].sort((a, b) => a - b);
}

/** Previous / Next, 'Page x of y' and page-number buttons; every move stays within 1..count. */
export function Pager({
  page,
  count,
  onChange,
  label,
}: {
  page: number;
  count: number;
  onChange: (page: number) => void;
  label: string;
}) {
  if (count <= 1) return null;
  const go = (target: number) => onChange(Math.min(Math.max(target, 1), count));
  return (
    <nav className={styles.pager} aria-label={label}>
      <Button variant="outline" disabled={page <= 1} onClick={() => go(page - 1)}>
        Previous
      </Button>
      <span aria-live="polite">
        Page {page} of {count}
      </span>
      <Button variant="outline" disabled={page >= count} onClick={() => go(page + 1)}>
        Next
      </Button>
      {visiblePages(page, count).map((number) => (
        <button
          key={number}
          type="button"
          className={styles.pageNumber}
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Page ${number}`}
          onClick={() => go(number)}
        >
          {number}
        </button>
      ))}
    </nav>
  );
}
