import type { RequestStatus } from '#contract/http/requests.ts';
import type { ReservationStatus } from '#contract/http/reservations.ts';
import styles from './records.module.css';

/** How a status reads at a glance; the label always says it in words too. */
export type StatusTone = 'neutral' | 'progress' | 'positive' | 'negative';

/** A status word in a coloured pill. */
export function StatusBadge({ label, tone = 'neutral' }: { label: string; tone?: StatusTone }) {
  return (
    <span className={styles.badge} data-tone={tone}>
      {label}
    </span>
  );
}

/** Class names shared by the request and reservation lists, the table and the desk. */
export const recordStyles = styles;

/** The tone of each request status. */
export const REQUEST_STATUS_TONES: Record<RequestStatus, StatusTone> = {
  pending: 'neutral',
  accepted: 'progress',
  ordered: 'progress',
  available: 'positive',
  rejected: 'negative',
};

/** The tone of each reservation status. */
export const RESERVATION_STATUS_TONES: Record<ReservationStatus, StatusTone> = {
  active: 'progress',
  collected: 'positive',
  returned: 'neutral',
  cancelled: 'neutral',
  expired: 'negative',
  no_show: 'negative',
};
