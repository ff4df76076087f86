import {
  DESK_TRANSITIONS,
  RESERVATION_STATUS_LABELS,
  type DeskReservation,
} from '#contract/http/reservations.ts';
import { ApiError } from '../../api/client.ts';
import { type DeskMove, useDeskStatusChange } from '../../api/reservations.ts';
import { formatDateTime } from '../../components/records/format.ts';
import {
  RESERVATION_STATUS_TONES,
  recordStyles as styles,
  StatusBadge,
} from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';

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

/** One reservation at the desk: who holds it, how to reach them, the book and the moves offered. */
export function DeskReservationItem({
  reservation,
  moves,
  headingLevel,
  onChanged,
}: {
  reservation: DeskReservation;
  /** The moves this list offers; only those the status allows (DESK_TRANSITIONS) are shown. */
  moves: readonly DeskMove[];
  headingLevel: 3 | 4;
  onChanged: (text: string) => void;
}) {
  const change = useDeskStatusChange();
  const { holder, book } = reservation;
  const offered = moves.filter((move) => DESK_TRANSITIONS[reservation.status].includes(move));
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
      {offered.length > 0 ? (
        <div className={styles.actions}>
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
