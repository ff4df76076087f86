import {
  REQUEST_STATUS_LABELS,
  RESOURCE_TYPE_LABELS,
  type ResourceRequestRecord,
} from '#contract/http/requests.ts';
import { useMyRequests } from '../../api/requests.ts';
import { formatDate } from './format.ts';
import { REQUEST_STATUS_TONES, StatusBadge } from './status-badge.tsx';
import styles from './records.module.css';

/** `1 supporter`, `3 supporters`. */
export function supportersText(count: number): string {
  return `${count} supporter${count === 1 ? '' : 's'}`;
}

/** One of the person's requests: what, when, where it stands and, if rejected, why. */
function RequestItem({ request }: { request: ResourceRequestRecord }) {
  return (
    <li className={styles.item}>
      <div className={styles.itemHead}>
        <h3 className={styles.itemTitle}>{request.title}</h3>
        <StatusBadge
          label={REQUEST_STATUS_LABELS[request.status]}
          tone={REQUEST_STATUS_TONES[request.status]}
        />
      </div>
      <p className={styles.meta}>
        {RESOURCE_TYPE_LABELS[request.resourceType]} · Requested{' '}
        <time dateTime={request.createdAt}>{formatDate(request.createdAt)}</time> ·{' '}
        {supportersText(request.supporters)}
      </p>
      {request.status === 'rejected' && request.statusReason ? (
        <p className={styles.reason}>Reason: {request.statusReason}</p>
      ) : null}
    </li>
  );
}

/**
 * The signed-in person's own requests with their status and any rejection reason; the request
 * screen and the student home both show it. The caller supplies the heading.
 */
export function MyRequests() {
  const { data, isPending, isError, error } = useMyRequests();
  if (isPending) return <p role="status">Loading your requests…</p>;
  if (isError) return <p role="alert">Your requests could not be loaded: {error.message}</p>;
  if (data.length === 0)
    return <p className={styles.status}>You have not requested any resources yet.</p>;
  return (
    <ul className={styles.list}>
      {data.map((request) => (
        <RequestItem key={request._id} request={request} />
      ))}
    </ul>
  );
}
