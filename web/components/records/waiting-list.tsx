import { useState } from 'react';
import { HOLD_STATUS_LABELS, type HoldRecord, type HoldStatus } from '#contract/http/holds.ts';
import { reserveBookPath } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useJoinWaitingList, useLeaveWaitingList, useMyHolds } from '../../api/holds.ts';
import { Button, ButtonLink } from '../ui/button.tsx';
import { formatDateTime } from './format.ts';
import { StatusBadge, recordStyles, type StatusTone } from './status-badge.tsx';

const TONES: Record<HoldStatus, StatusTone> = {
  queued: 'progress',
  offered: 'positive',
  fulfilled: 'neutral',
  cancelled: 'neutral',
  expired: 'negative',
};

/** Where one stands, in words: a place and an estimate, or until when an offer waits. */
export function holdText(hold: HoldRecord): string {
  if (hold.status === 'offered' && hold.offerExpiresAt) {
    return `A copy is waiting for you: choose a pickup slot before ${formatDateTime(hold.offerExpiresAt)}.`;
  }
  if (hold.status === 'queued' && hold.position !== null) {
    const days = hold.estimatedDays ?? 0;
    const place = hold.position === 1 ? 'You are next' : `You are number ${hold.position}`;
    return `${place} on the waiting list; a copy should come up in about ${days} ${days === 1 ? 'day' : 'days'}.`;
  }
  if (hold.status === 'fulfilled')
    return `Reserved${hold.reservationId ? ` (${hold.reservationId})` : ''}.`;
  if (hold.status === 'expired') return 'The offer lapsed and went to the next person.';
  return 'You left this waiting list.';
}

/**
 * "Join the waiting list" for a book with no copy free: joins, then says where the person stands.
 * Used on the reservation picker and on search results.
 */
export function JoinWaitingList({ bookId, title }: { bookId: string; title: string }) {
  const join = useJoinWaitingList();
  const [said, setSaid] = useState('');
  return (
    <span className={recordStyles.waitingJoin}>
      <Button
        variant="outline"
        disabled={join.isPending}
        aria-label={`Join the waiting list for ${title}`}
        onClick={() =>
          join.mutate(bookId, {
            onSuccess: (hold) => setSaid(holdText(hold)),
            onError: (error) =>
              setSaid(
                error instanceof ApiError ? error.message : 'Joining failed. Please try again.',
              ),
          })
        }
      >
        {join.isPending ? 'Joining…' : 'Join the waiting list'}
      </Button>
      <span role="status">{said}</span>
    </span>
  );
}

/** The person's waiting lists: offers to take, places in queues, and the last few that ended. */
export function MyWaitingLists() {
  const holds = useMyHolds();
  const leave = useLeaveWaitingList();
  const [failure, setFailure] = useState('');
  if (holds.isPending) return <p role="status">Loading your waiting lists…</p>;
  if (holds.isError) return <p role="alert">Your waiting lists could not be loaded.</p>;
  if (holds.data.length === 0) {
    return (
      <p className={recordStyles.empty}>
        You are on no waiting list. When every copy of a book is out, join its list and the next
        free copy is offered to you.
      </p>
    );
  }
  return (
    <>
      {failure ? <p role="alert">{failure}</p> : null}
      <ul className={recordStyles.list}>
        {holds.data.slice(0, 10).map((hold) => {
          const open = hold.status === 'queued' || hold.status === 'offered';
          return (
            <li key={hold.holdId} className={recordStyles.item}>
              <div className={recordStyles.itemHead}>
                <h3 className={recordStyles.itemTitle}>{hold.book.title}</h3>
                <StatusBadge label={HOLD_STATUS_LABELS[hold.status]} tone={TONES[hold.status]} />
              </div>
              <p className={recordStyles.meta}>{hold.book.author}</p>
              <p className={recordStyles.reason}>{holdText(hold)}</p>
              {open ? (
                <div className={recordStyles.actions}>
                  {hold.status === 'offered' ? (
                    <ButtonLink to={reserveBookPath(hold.book.id)}>Choose a pickup slot</ButtonLink>
                  ) : null}
                  <Button
                    variant="outline"
                    disabled={leave.isPending}
                    onClick={() => {
                      setFailure('');
                      leave.mutate(hold.holdId, {
                        onError: (error) =>
                          setFailure(
                            error instanceof ApiError
                              ? error.message
                              : 'That did not work. Please try again.',
                          ),
                      });
                    }}
                  >
                    {hold.status === 'offered' ? 'Decline the copy' : 'Leave the list'}
                    <span className="visually-hidden"> for {hold.book.title}</span>
                  </Button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}
