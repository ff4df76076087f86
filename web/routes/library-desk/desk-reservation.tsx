import { useEffect, useId, useRef, useState } from 'react';
import {
  DESK_TRANSITIONS,
  RESERVATION_STATUS_LABELS,
  type DeskReservation,
} from '#contract/http/reservations.ts';
import { ApiError } from '../../api/client.ts';
import { useCheckOut } from '../../api/loans.ts';
import { type DeskMove, useDeskStatusChange } from '../../api/reservations.ts';
import { formStyles } from '../../components/forms/fields.tsx';
import { formatDateTime } from '../../components/records/format.ts';
import {
  RESERVATION_STATUS_TONES,
  recordStyles as styles,
  StatusBadge,
} from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { checkedOutText, refusalOfCopy } from './circulation-text.ts';
import deskStyles from './desk.module.css';

/** What each desk move's button says, and how the change is announced. */
const MOVES: Record<DeskMove, { label: string; done: string }> = {
  collected: { label: 'Mark collected', done: 'collected' },
  no_show: { label: 'Mark no-show', done: 'marked as a no-show' },
  returned: { label: 'Mark returned', done: 'returned' },
};

/**
 * A `mailto:` link to exactly this address: a `?`, `&` or `#` in it cannot add recipients, a
 * subject or a body, and a lone surrogate (which `encodeURIComponent` refuses) becomes U+FFFD.
 */
export function mailtoHref(email: string): string {
  // With the u flag a surrogate pair is one code point, so only lone surrogates match.
  const wellFormed = email.replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
  return `mailto:${encodeURIComponent(wellFormed).replaceAll('%40', '@')}`;
}

/**
 * The barcode box "Check out" opens in a pickup's row: the copy scanned (or typed, then Enter) is
 * lent on this reservation. Cancel, or Escape, closes it and gives the focus back to the button.
 */
function PickupCheckOut({
  reservation,
  onDone,
  onClose,
}: {
  reservation: DeskReservation;
  onDone: (text: string) => void;
  onClose: () => void;
}) {
  const checkOut = useCheckOut();
  const [barcode, setBarcode] = useState('');
  const [failure, setFailure] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => inputRef.current?.focus(), []);

  const refuse = (text: string) => {
    setFailure(text);
    inputRef.current?.focus();
    inputRef.current?.select();
  };

  return (
    <form
      className={deskStyles.pickupCheckOut}
      aria-label={`Check out “${reservation.book.title}” to ${reservation.holder.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const code = barcode.trim();
        if (!code) {
          refuse('Scan or type the barcode');
          return;
        }
        setFailure('');
        checkOut.mutate(
          { barcode: code, reservationId: reservation.reservationId },
          {
            onSuccess: (loan) => onDone(checkedOutText(loan)),
            onError: (error) => refuse(refusalOfCopy(code, error)),
          },
        );
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className={formStyles.field}>
        <label htmlFor={`${id}-barcode`} className={formStyles.label}>
          Barcode of the copy
        </label>
        <input
          ref={inputRef}
          id={`${id}-barcode`}
          className={formStyles.input}
          value={barcode}
          onChange={(event) => setBarcode(event.target.value)}
          aria-invalid={failure ? true : undefined}
          aria-describedby={failure ? `${id}-error` : undefined}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
        />
      </div>
      <div className={deskStyles.pickupCheckOutActions}>
        <Button type="submit">{checkOut.isPending ? 'Checking out…' : 'Check out'}</Button>
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
      <p id={`${id}-error`} role="alert" className={failure ? styles.error : styles.live}>
        {failure}
      </p>
    </form>
  );
}

/** One reservation at the desk: who holds it, how to reach them, the book and the moves offered. */
export function DeskReservationItem({
  reservation,
  moves,
  headingLevel,
  onChanged,
  checkOut = false,
}: {
  reservation: DeskReservation;
  /** The moves this list offers; only those the status allows (DESK_TRANSITIONS) are shown. */
  moves: readonly DeskMove[];
  headingLevel: 3 | 4;
  onChanged: (text: string) => void;
  /** Offers "Check out" (a barcode box lending a copy on it) while the reservation is active. */
  checkOut?: boolean;
}) {
  const change = useDeskStatusChange();
  const [checkingOut, setCheckingOut] = useState(false);
  const checkOutButton = useRef<HTMLButtonElement>(null);
  const { holder, book } = reservation;
  const offered = moves.filter((move) => DESK_TRANSITIONS[reservation.status].includes(move));
  const canCheckOut = checkOut && reservation.status === 'active';
  const Heading = headingLevel === 3 ? 'h3' : 'h4';

  return (
    <li className={styles.item}>
      <div className={styles.itemHead}>
        <Heading className={styles.itemTitle}>{holder.name}</Heading>
        <StatusBadge
          label={RESERVATION_STATUS_LABELS[reservation.status]}
          tone={RESERVATION_STATUS_TONES[reservation.status]}
        />
      </div>
      <p className={styles.meta}>
        <a href={mailtoHref(holder.email)}>{holder.email}</a>
        {holder.phoneNumber ? (
          <>
            {' · '}
            <a href={`tel:${holder.phoneNumber.replace(/[^\d+]/g, '')}`}>{holder.phoneNumber}</a>
          </>
        ) : null}
      </p>
      <p className={styles.meta}>
        {book.title} by {book.author} · {reservation.reservationId}
      </p>
      {reservation.status === 'active' ? (
        <p className={styles.meta}>
          Held until{' '}
          <time dateTime={reservation.expiresAt}>{formatDateTime(reservation.expiresAt)}</time>
        </p>
      ) : null}
      {offered.length > 0 || canCheckOut ? (
        <div className={styles.actions}>
          {canCheckOut ? (
            <Button
              ref={checkOutButton}
              aria-expanded={checkingOut}
              onClick={() => setCheckingOut((open) => !open)}
            >
              Check out
              <span className="visually-hidden">
                : {book.title} for {holder.name}
              </span>
            </Button>
          ) : null}
          {offered.map((move) => (
            <Button
              key={move}
              variant={move === 'no_show' ? 'outline' : 'primary'}
              disabled={change.isPending}
              onClick={() =>
                change.mutate(
                  { reservationId: reservation.reservationId, status: move },
                  {
                    onSuccess: () =>
                      onChanged(`“${book.title}” for ${holder.name}: ${MOVES[move].done}.`),
                  },
                )
              }
            >
              {MOVES[move].label}
              <span className="visually-hidden">
                : {book.title} for {holder.name}
              </span>
            </Button>
          ))}
        </div>
      ) : null}
      {canCheckOut && checkingOut ? (
        <PickupCheckOut
          reservation={reservation}
          onDone={(text) => {
            setCheckingOut(false);
            onChanged(text);
          }}
          onClose={() => {
            setCheckingOut(false);
            checkOutButton.current?.focus();
          }}
        />
      ) : null}
      {change.isError ? (
        <p role="alert" className={styles.error}>
          {change.error instanceof ApiError && change.error.fromServer
            ? change.error.message
            : 'The server could not be reached. Please try again.'}
        </p>
      ) : null}
    </li>
  );
}
