import { useRef, useState } from 'react';
import { RESERVATION_STATUS_LABELS, type ReservationRecord } from '#contract/http/reservations.ts';
import { ApiError } from '../../api/client.ts';
import { useCancelReservation, useMyReservations } from '../../api/reservations.ts';
import { Button } from '../ui/button.tsx';
import { formatDateTime } from './format.ts';
import { RESERVATION_STATUS_TONES, StatusBadge } from './status-badge.tsx';
import styles from './records.module.css';

/** Active reservations first, each group in the server's order (upcoming first, then newest). */
export function activeFirst(reservations: readonly ReservationRecord[]): ReservationRecord[] {
  return [
    ...reservations.filter((reservation) => reservation.status === 'active'),
    ...reservations.filter((reservation) => reservation.status !== 'active'),
  ];
}

/** One reservation: the book, the pickup slot, where it stands and how long the copy is held. */
function ReservationItem({
  reservation,
  onCancel,
  cancelling,
}: {
  reservation: ReservationRecord;
  onCancel: (() => void) | undefined;
  cancelling: boolean;
}) {
  const active = reservation.status === 'active';
  return (
    <li className={styles.item}>
      <div className={styles.itemHead}>
        <h3 className={styles.itemTitle}>{reservation.book.title}</h3>
        <StatusBadge
          label={RESERVATION_STATUS_LABELS[reservation.status]}
          tone={RESERVATION_STATUS_TONES[reservation.status]}
        />
      </div>
      <p className={styles.meta}>
        {reservation.book.author} · Reservation {reservation.reservationId}
      </p>
      <p className={styles.meta}>
        Pickup: {reservation.formattedDate}, {reservation.timeSlot}
      </p>
      {active ? (
        <p className={styles.meta}>
          Held until{' '}
          <time dateTime={reservation.expiresAt}>{formatDateTime(reservation.expiresAt)}</time>
        </p>
      ) : null}
      {active && onCancel ? (
        <div className={styles.actions}>
          <Button variant="outline" onClick={onCancel} disabled={cancelling}>
            {cancelling ? 'Cancelling…' : 'Cancel'}
            <span className="visually-hidden"> the reservation of {reservation.book.title}</span>
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The signed-in person's reservations, active first; the reservation screen (with Cancel) and
 * the student home (active ones only) both show it. The caller supplies the heading.
 */
export function MyReservations({
  activeOnly = false,
  allowCancel = false,
}: {
  activeOnly?: boolean;
  allowCancel?: boolean;
}) {
  const { data, isPending, isError, error } = useMyReservations();
  const cancel = useCancelReservation();
  const [message, setMessage] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  const onCancel = (reservation: ReservationRecord) => {
    const confirmed = window.confirm(
      `Cancel your reservation of “${reservation.book.title}” for ${reservation.formattedDate}, ${reservation.timeSlot}?`,
    );
    if (!confirmed) return;
    setMessage(null);
    cancel.mutate(reservation.reservationId, {
      onSuccess: () =>
        setMessage({
          kind: 'info',
          text: `Your reservation of “${reservation.book.title}” is cancelled.`,
        }),
      onError: (failure) =>
        setMessage({
          kind: 'error',
          text: `The reservation was not cancelled: ${
            failure instanceof ApiError && failure.fromServer
              ? failure.message
              : 'the server could not be reached. Please try again.'
          }`,
        }),
      // The Cancel button disappears with the change; the message takes the focus instead.
      onSettled: () => requestAnimationFrame(() => messageRef.current?.focus()),
    });
  };

  if (isPending) return <p role="status">Loading your reservations…</p>;
  if (isError) return <p role="alert">Your reservations could not be loaded: {error.message}</p>;
  const shown = activeFirst(data).filter(
    (reservation) => !activeOnly || reservation.status === 'active',
  );
  return (
    <>
      <p
        ref={messageRef}
        tabIndex={-1}
        role="status"
        className={`${styles.live} ${message?.kind === 'error' ? styles.error : styles.status}`}
      >
        {message?.text}
      </p>
      {shown.length === 0 ? (
        <p className={styles.status}>
          {activeOnly ? 'You have no active reservations.' : 'You have not reserved any books yet.'}
        </p>
      ) : (
        <ul className={styles.list}>
          {shown.map((reservation) => (
            <ReservationItem
              key={reservation.reservationId}
              reservation={reservation}
              cancelling={cancel.isPending && cancel.variables === reservation.reservationId}
              onCancel={allowCancel ? () => onCancel(reservation) : undefined}
            />
          ))}
        </ul>
      )}
    </>
  );
}
