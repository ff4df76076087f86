import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ReservationBook, ReservationRecord } from '#contract/http/reservations.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { EMAIL_NOT_VERIFIED_CODE } from '#contract/http/users.ts';
import { ApiError } from '../../api/client.ts';
import {
  newIdempotencyKey,
  useReservationBooks,
  useReservationDays,
  useReserveBook,
} from '../../api/reservations.ts';
import { useCurrentUser } from '../../api/session.ts';
import { FormMessage } from '../../components/forms/fields.tsx';
import { formatDateTime } from '../../components/records/format.ts';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { MyReservations } from '../../components/records/my-reservations.tsx';
import { MyWaitingLists } from '../../components/records/waiting-list.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { BookChoice, BookSearch, type BookSearchValue } from './book-choice.tsx';
import { Pager } from '../../components/catalogue/pager.tsx';
import { SlotChoice } from './slot-choice.tsx';
import styles from './reservation.module.css';

/** The spec's three steps, in order. */
export const STEPS = ['Select a Book', 'Choose Date & Time', 'Confirmation'] as const;
type Step = 1 | 2 | 3;

/**
 * The spec's failure line, followed by the server's reason when it gave one; an address not
 * verified yet is told only what to do, since trying again will not help.
 */
export function reservationFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === EMAIL_NOT_VERIFIED_CODE) return error.message;
  return error instanceof ApiError && error.fromServer
    ? `Reservation failed. Please try again. ${error.message}`
    : 'Reservation failed. Please try again.';
}

/** Books per page of the picker. */
export const BOOKS_PAGE_SIZE = 12;

type TimeSlot = (typeof RESERVATION_TIME_SLOTS)[number];
const isTimeSlot = (value: string): value is TimeSlot =>
  (RESERVATION_TIME_SLOTS as readonly string[]).includes(value);

/** What the picker found, in words. */
export function foundText(total: number, { q, availableOnly }: BookSearchValue): string {
  const free = availableOnly ? ' with a copy free now' : '';
  if (total === 0) {
    return q
      ? `No book you can reserve matches “${q}”${free}. Try fewer or other words.`
      : `No book has a copy free now.`;
  }
  const count = `${total.toLocaleString('en-US')} ${total === 1 ? 'book' : 'books'}`;
  return q
    ? `${count}${free} ${total === 1 ? 'matches' : 'match'} “${q}”.`
    : `${count}${free} to choose from.`;
}

/** The numbered steps; the current one carries `aria-current="step"`. */
function StepIndicator({ step }: { step: Step }) {
  return (
    <ol className={styles.steps} aria-label="Reservation steps">
      {STEPS.map((label, index) => {
        const number = index + 1;
        const state = number < step ? 'done' : number === step ? 'current' : 'upcoming';
        return (
          <li
            key={label}
            data-state={state}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className={styles.stepNumber} aria-hidden="true">
              {number}
            </span>
            {label}
            {state === 'done' ? <span className="visually-hidden"> (done)</span> : null}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * `/offline-book-service`: reserve a physical book for pickup in three steps (pick an available
 * book, a day and a slot, then see the confirmation), and manage one's reservations below. The
 * picker searches and pages all reservable books; `?book=<id>` (a catalogue item's "Reserve a
 * copy") starts at step 2 with that book chosen, when a copy of it is free.
 */
export function ReservationPage() {
  useDocumentTitle('Offline Book Service');
  const { data: user } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const linkedId = params.get('book');
  const [search, setSearch] = useState<BookSearchValue & { page: number }>({
    q: '',
    availableOnly: false,
    page: 1,
  });
  const books = useReservationBooks({ ...search, pageSize: BOOKS_PAGE_SIZE });
  const linked = useReservationBooks({ id: linkedId ?? undefined }, linkedId !== null);
  const days = useReservationDays();
  const reserve = useReserveBook();

  const [step, setStep] = useState<Step>(1);
  // The chosen book itself, not only its id: it stays chosen while the picker pages on.
  const [book, setBook] = useState<ReservationBook | null>(null);
  const [pickedDate, setPickedDate] = useState('');
  const [timeSlot, setTimeSlot] = useState('');
  const [error, setError] = useState('');
  const [result, setResult] = useState<ReservationRecord | null>(null);
  // One key per confirmation attempt: a retry of the same choice after a lost answer reuses it.
  const attempt = useRef<{ choice: string; key: string } | null>(null);

  const heading = useRef<HTMLHeadingElement>(null);
  const stepChanged = useRef(false);
  useEffect(() => {
    // Each new step's heading takes the focus, so keyboard and screen-reader users start there.
    if (stepChanged.current) heading.current?.focus();
  }, [step]);

  const goTo = (next: Step) => {
    stepChanged.current = true;
    setError('');
    setStep(next);
  };

  // A book linked from the catalogue: chosen, and straight to the slots when a copy is free
  // (settled once, as the render that first has the answer; then the link leaves the address).
  const [settledLink, setSettledLink] = useState<string | null>(null);
  if (linkedId && linked.isSuccess && settledLink !== linkedId) {
    setSettledLink(linkedId);
    const found = linked.data.payload[0];
    if (!found) {
      setError('That book has no copy you can reserve here. Choose another below.');
    } else {
      setBook(found);
      if (found.available) setStep(2);
      else setSearch({ q: found.title, availableOnly: false, page: 1 });
    }
  }
  useEffect(() => {
    if (!linkedId || settledLink !== linkedId) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('book');
        return next;
      },
      { replace: true },
    );
  }, [linkedId, settledLink, setParams]);

  const dayList = days.data?.days ?? [];
  // Until a day is picked, the first (today) is shown.
  const day = dayList.find((candidate) => candidate.date === pickedDate) ?? dayList[0];
  const slotOpen = day?.slots.some((slot) => slot.timeSlot === timeSlot && slot.open) ?? false;

  const onContinue = () => {
    if (!book?.available) {
      setError('Please select an available book to continue.');
      return;
    }
    goTo(2);
  };

  const onConfirm = () => {
    if (!book || !day || !slotOpen || !isTimeSlot(timeSlot)) {
      setError('Please select a book and time slot');
      return;
    }
    setError('');
    const choice = `${book._id}|${day.date}|${timeSlot}`;
    if (attempt.current?.choice !== choice) attempt.current = { choice, key: newIdempotencyKey() };
    reserve.mutate(
      {
        idempotencyKey: attempt.current.key,
        body: {
          user: {
            email: user?.email,
            firstName: user?.firstName,
            phoneNumber: user?.phoneNumber,
          },
          book: { id: book._id, title: book.title, author: book.author, genre: book.genre },
          reservation: { date: day.date, formattedDate: day.formattedDate, timeSlot },
        },
      },
      {
        onSuccess: (answer) => {
          attempt.current = null;
          setResult(answer.reservation);
          goTo(3);
        },
        onError: (failure) => {
          // A refusal is final for this key; only a lost or failed answer may be retried with it.
          if (failure instanceof ApiError && failure.fromServer && failure.status < 500)
            attempt.current = null;
          setError(reservationFailureMessage(failure));
        },
      },
    );
  };

  const onReserveAnother = () => {
    setBook(null);
    setPickedDate('');
    setTimeSlot('');
    setResult(null);
    attempt.current = null;
    reserve.reset();
    goTo(1);
    void books.refetch();
  };

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Offline Book Service"
        lead="Reserve a physical book and pick it up at the library desk in a 30-minute slot."
      />
      <section className={styles.panel} aria-labelledby="reservation-step-title">
        <StepIndicator step={step} />
        <h2 id="reservation-step-title" ref={heading} tabIndex={-1} className={styles.stepTitle}>
          {step === 3 ? 'Reservation successful!' : STEPS[step - 1]}
        </h2>

        {step === 1 ? (
          <>
            <BookSearch
              value={search}
              onSearch={(next) => {
                setSearch({ ...next, page: 1 });
                setError('');
              }}
            />
            {books.isPending ? (
              <p role="status">Loading the books…</p>
            ) : books.isError ? (
              <FormMessage>The books could not be loaded: {books.error.message}</FormMessage>
            ) : (
              <>
                <p role="status" className={styles.found}>
                  {foundText(books.data.total ?? books.data.payload.length, search)}
                </p>
                <BookChoice
                  books={books.data.payload}
                  selectedId={book?._id ?? null}
                  onSelect={(chosen) => {
                    setBook(chosen);
                    setError('');
                  }}
                />
                <Pager
                  page={search.page}
                  count={Math.max(
                    1,
                    Math.ceil((books.data.total ?? 0) / (books.data.pageSize ?? BOOKS_PAGE_SIZE)),
                  )}
                  onChange={(page) => setSearch({ ...search, page })}
                  label="Pages of books"
                />
              </>
            )}
            {book ? (
              <p className={styles.summary}>
                Chosen: <strong>{book.title}</strong> by {book.author}
              </p>
            ) : null}
            <FormMessage>{error}</FormMessage>
            <div className={styles.actions}>
              <Button onClick={onContinue}>Continue</Button>
            </div>
          </>
        ) : null}

        {step === 2 ? (
          <>
            {book ? (
              <p className={styles.summary}>
                Book: <strong>{book.title}</strong> by {book.author}
              </p>
            ) : null}
            {days.isPending ? (
              <p role="status">Loading the dates…</p>
            ) : days.isError ? (
              <FormMessage>The dates could not be loaded: {days.error.message}</FormMessage>
            ) : (
              <SlotChoice
                days={dayList}
                date={day?.date ?? ''}
                timeSlot={timeSlot}
                onDate={(next) => {
                  setPickedDate(next.date);
                  // A slot that is already over on the new day cannot stay chosen.
                  if (!next.slots.some((slot) => slot.timeSlot === timeSlot && slot.open))
                    setTimeSlot('');
                }}
                onSlot={(slot) => {
                  setTimeSlot(slot);
                  setError('');
                }}
              />
            )}
            <FormMessage>{error}</FormMessage>
            <div className={styles.actions}>
              <Button variant="outline" onClick={() => goTo(1)}>
                Back
              </Button>
              <Button onClick={onConfirm} disabled={reserve.isPending}>
                {reserve.isPending ? 'Reserving…' : 'Confirm'}
              </Button>
            </div>
          </>
        ) : null}

        {step === 3 && result ? (
          <>
            <dl className={styles.details}>
              <dt>Reservation ID</dt>
              <dd>{result.reservationId}</dd>
              <dt>Book</dt>
              <dd>
                {result.book.title} by {result.book.author}
              </dd>
              <dt>Date</dt>
              <dd>{result.formattedDate}</dd>
              <dt>Time slot</dt>
              <dd>{result.timeSlot}</dd>
              <dt>Held until</dt>
              <dd>
                <time dateTime={result.expiresAt}>{formatDateTime(result.expiresAt)}</time>
              </dd>
            </dl>
            <p>Pick the book up at the library desk during your slot.</p>
            <div className={styles.actions}>
              <Button onClick={onReserveAnother}>Reserve Another Book</Button>
            </div>
          </>
        ) : null}
      </section>

      <section className={styles.section} aria-labelledby="my-reservations-title">
        <h2 id="my-reservations-title" className={styles.sectionTitle}>
          Your reservations
        </h2>
        <MyReservations allowCancel />
      </section>

      <section className={styles.section} aria-labelledby="my-waiting-lists-title">
        <h2 id="my-waiting-lists-title" className={styles.sectionTitle}>
          Your waiting lists
        </h2>
        <MyWaitingLists />
      </section>
    </div>
  );
}
