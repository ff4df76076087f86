import { useId, useState } from 'react';
import { useDeskActivity } from '../../api/loans.ts';
import { FormMessage } from '../../components/forms/fields.tsx';
import { formatDateTime } from '../../components/records/format.ts';
import { Button } from '../../components/ui/button.tsx';
import { activityText } from './circulation-text.ts';
import styles from './desk.module.css';

/** How many recorded actions show before "Show all". */
const FIRST_SHOWN = 10;

/** "Recent desk activity": who did what, when, to which copy, newest first. */
export function DeskActivity() {
  const activity = useDeskActivity();
  const [all, setAll] = useState(false);
  const id = useId();
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        Recent desk activity
      </h2>
      {activity.isPending ? (
        <p role="status">Loading the desk’s activity…</p>
      ) : activity.isError ? (
        <FormMessage>The desk’s activity could not be loaded: {activity.error.message}</FormMessage>
      ) : activity.data.length === 0 ? (
        <p className={styles.empty}>Nothing has been recorded yet.</p>
      ) : (
        <>
          <ol className={styles.activity}>
            {(all ? activity.data : activity.data.slice(0, FIRST_SHOWN)).map((event, index) => (
              <li
                key={`${event.at}-${event.action}-${event.loanId ?? event.reservationId ?? index}`}
              >
                <time dateTime={event.at} className={styles.activityTime}>
                  {formatDateTime(event.at)}
                </time>
                <span>
                  {activityText(event)}
                  {event.barcode ? (
                    <span className={styles.activityCopy}> · copy {event.barcode}</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ol>
          {activity.data.length > FIRST_SHOWN ? (
            <Button variant="ghost" aria-expanded={all} onClick={() => setAll((shown) => !shown)}>
              {all ? 'Show fewer' : `Show all ${activity.data.length}`}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
