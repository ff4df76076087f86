import { type FormEvent, useId, useRef, useState } from 'react';
import {
  REQUEST_STATUS_LABELS,
  REQUEST_TRANSITIONS,
  requestStatusChangeSchema,
  type RequestStatus,
  type ResourceRequestRecord,
} from '#contract/http/requests.ts';
import { ApiError } from '../../api/client.ts';
import { useChangeRequestStatus } from '../../api/requests.ts';
import { formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './requests.module.css';

/** What the button for each move says. */
export const MOVE_LABELS: Partial<Record<RequestStatus, string>> = {
  accepted: 'Accept',
  ordered: 'Mark ordered',
  available: 'Mark available',
  rejected: 'Reject',
};

function failureText(error: unknown): string {
  return error instanceof ApiError && error.fromServer
    ? error.message
    : 'The server could not be reached. Please try again.';
}

/**
 * The moves a request may make next (REQUEST_TRANSITIONS). Reject opens an inline form for the
 * reason the requester will read; a refused move shows the server's reason in the row.
 */
export function RequestActions({
  request,
  onChanged,
}: {
  request: ResourceRequestRecord;
  onChanged: (text: string) => void;
}) {
  const change = useChangeRequestStatus();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState('');
  const rejectButton = useRef<HTMLButtonElement>(null);
  const id = useId();
  const moves = REQUEST_TRANSITIONS[request.status];

  if (moves.length === 0) return <span className={styles.muted}>No further steps</span>;

  const move = (status: RequestStatus, why?: string) =>
    change.mutate(
      { id: request._id, change: { status, ...(why ? { reason: why } : {}) } },
      {
        onSuccess: () => {
          setRejecting(false);
          onChanged(`“${request.title}” is now ${REQUEST_STATUS_LABELS[status]}.`);
        },
      },
    );

  const closeRejectForm = () => {
    setRejecting(false);
    setReasonError('');
    // Back to the button that opened the form, so keyboard users keep their place.
    requestAnimationFrame(() => rejectButton.current?.focus());
  };

  const onReject = (event: FormEvent) => {
    event.preventDefault();
    const parsed = requestStatusChangeSchema.safeParse({ status: 'rejected', reason });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? 'Give a reason for the rejection');
      return;
    }
    setReasonError('');
    move('rejected', parsed.data.reason);
  };

  return (
    <div className={styles.actions}>
      {rejecting ? (
        <form className={styles.rejectForm} onSubmit={onReject} noValidate>
          <label htmlFor={`${id}-reason`} className={formStyles.label}>
            Reason for rejecting “{request.title}”
          </label>
          <textarea
            id={`${id}-reason`}
            className={formStyles.input}
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${id}-reason-error` : undefined}
            autoFocus
          />
          {reasonError ? (
            <span id={`${id}-reason-error`} className={formStyles.error}>
              {reasonError}
            </span>
          ) : null}
          <div className={styles.actions}>
            <Button type="submit" variant="primary" disabled={change.isPending}>
              {change.isPending ? 'Rejecting…' : 'Confirm rejection'}
            </Button>
            <Button variant="ghost" onClick={closeRejectForm}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        moves.map((status) => (
          <Button
            key={status}
            ref={status === 'rejected' ? rejectButton : undefined}
            variant={status === 'rejected' ? 'outline' : 'primary'}
            disabled={change.isPending}
            onClick={() => {
              change.reset();
              if (status === 'rejected') setRejecting(true);
              else move(status);
            }}
          >
            {MOVE_LABELS[status] ?? REQUEST_STATUS_LABELS[status]}
            <span className="visually-hidden"> “{request.title}”</span>
          </Button>
        ))
      )}
      {change.isError ? (
        <p role="alert" className={styles.rowError}>
          {failureText(change.error)}
        </p>
      ) : null}
    </div>
  );
}
