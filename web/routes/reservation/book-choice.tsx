import { type FormEvent, useId, useState } from 'react';
import type { ReservationBook } from '#contract/http/reservations.ts';
import { Cover } from '../../components/catalogue/cover.tsx';
import { formStyles } from '../../components/forms/fields.tsx';
import { formatDateTime } from '../../components/records/format.ts';
import { JoinWaitingList } from '../../components/records/waiting-list.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './reservation.module.css';

/** `2 of 3 copies free`. */
function copiesText(book: ReservationBook): string {
  return `${book.freeCopies} of ${book.copies} ${book.copies === 1 ? 'copy' : 'copies'} free`;
}

/** One book as a card with a radio button; an unavailable book's button is disabled. */
function BookCard({
  book,
  selected,
  onSelect,
}: {
  book: ReservationBook;
  selected: boolean;
  onSelect: () => void;
}) {
  const id = useId();
  return (
    <li className={styles.book} data-unavailable={!book.available}>
      <Cover
        title={book.title}
        authors={book.author}
        url={book.coverImage}
        size="medium"
        alt={`Cover of ${book.title}`}
      />
      <div className={styles.bookText}>
        <span className={styles.bookPick}>
          <input
            type="radio"
            id={id}
            name="reservation-book"
            value={book._id}
            checked={selected}
            disabled={!book.available}
            onChange={onSelect}
            aria-describedby={`${id}-details ${id}-availability`}
          />
          <label htmlFor={id}>{book.title}</label>
        </span>
        <p id={`${id}-details`} className={styles.meta}>
          {book.author} · {book.genre}
        </p>
        <p className={styles.description}>{book.description}</p>
        <p
          id={`${id}-availability`}
          className={styles.availability}
          data-available={book.available}
        >
          {book.offerExpiresAt
            ? `Waiting for you until ${formatDateTime(book.offerExpiresAt)}`
            : `${book.available ? 'Available' : 'Unavailable'} · ${copiesText(book)}`}
        </p>
        {!book.available ? <JoinWaitingList bookId={book._id} title={book.title} /> : null}
      </div>
    </li>
  );
}

/** Step 1: the reservable books; only an available one can be picked. */
export function BookChoice({
  books,
  selectedId,
  onSelect,
}: {
  books: readonly ReservationBook[];
  selectedId: string | null;
  onSelect: (book: ReservationBook) => void;
}) {
  return (
    <fieldset className={styles.choices}>
      <legend className="visually-hidden">Books you can reserve</legend>
      <ul className={styles.books}>
        {books.map((book) => (
          <BookCard
            key={book._id}
            book={book}
            selected={book._id === selectedId}
            onSelect={() => onSelect(book)}
          />
        ))}
      </ul>
    </fieldset>
  );
}

/** What the picker searches for. */
export interface BookSearchValue {
  q: string;
  availableOnly: boolean;
}

/**
 * The picker's search: words of the title, author or ISBN, searched on Enter or Search, and a
 * toggle for books with a copy free now, which applies at once.
 */
export function BookSearch({
  value,
  onSearch,
}: {
  value: BookSearchValue;
  onSearch: (next: BookSearchValue) => void;
}) {
  const ids = { q: useId(), hint: useId(), free: useId() };
  const [draft, setDraft] = useState(value.q);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ ...value, q: draft.trim() });
  };
  return (
    <form role="search" aria-label="Books" className={styles.bookSearch} onSubmit={submit}>
      <div className={`${formStyles.field} ${styles.bookSearchWords}`}>
        <label htmlFor={ids.q} className={formStyles.label}>
          Find a book
        </label>
        <input
          id={ids.q}
          type="search"
          className={formStyles.input}
          value={draft}
          maxLength={200}
          aria-describedby={ids.hint}
          onChange={(event) => setDraft(event.target.value)}
        />
        <span id={ids.hint} className={formStyles.hint}>
          Title, author or ISBN.
        </span>
      </div>
      <div className={formStyles.check}>
        <input
          id={ids.free}
          type="checkbox"
          checked={value.availableOnly}
          onChange={(event) => onSearch({ q: draft.trim(), availableOnly: event.target.checked })}
        />
        <label htmlFor={ids.free}>Only books with a free copy</label>
      </div>
      <Button type="submit" variant="outline">
        Search
      </Button>
    </form>
  );
}
