import { Link } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { useRecentReading } from '../../api/reading.ts';
import { Cover } from '../../components/catalogue/cover.tsx';
import styles from './continue-reading.module.css';

/** The address that opens a book in the viewer at `page`. */
export function readingLink(itemId: string, page: number): string {
  return `${ROUTES.librarySearch}?${new URLSearchParams({ item: itemId, page: String(page) }).toString()}`;
}

/**
 * "Continue reading": the books the student read last (up to six), each at the page they were
 * on. Nothing at all until there is one (and when the list cannot be read: it is a shortcut).
 */
export function ContinueReading({ className }: { className?: string }) {
  const recent = useRecentReading();
  const books = recent.data?.books ?? [];
  if (books.length === 0) return null;
  return (
    <section className={className} aria-labelledby="continue-reading-title">
      <h2 id="continue-reading-title" className={styles.title}>
        Continue reading
      </h2>
      <ul className={styles.list}>
        {books.map((book) => (
          <li key={book.item.id}>
            <Link className={styles.card} to={readingLink(book.item.id, book.page)}>
              <Cover title={book.item.title} authors={book.item.authors} url={book.item.coverUrl} />
              <span className={styles.text}>
                <span className={styles.bookTitle}>{book.item.title}</span>
                {book.item.authors.length > 0 ? (
                  <span className={styles.meta}>{book.item.authors.join(', ')}</span>
                ) : null}
                <span className={styles.progress}>
                  Page {book.page} of {book.pageCount}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
