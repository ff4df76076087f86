import { useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { useDeskPickups } from '../../api/reservations.ts';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { recordStyles } from '../../components/records/status-badge.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { CheckInOutPanel } from './check-in-out.tsx';
import { DeskActivity } from './desk-activity.tsx';
import { DeskLoans } from './desk-loans.tsx';
import { DeskReservationItem } from './desk-reservation.tsx';
import { DeskToday } from './desk-today.tsx';
import styles from './desk.module.css';

/**
 * `/desk`: librarians check copies out and in by barcode, hand out reserved copies by slot, mark
 * no-shows, renew and take back loans, and see what the desk recently did.
 */
export function LibraryDeskPage() {
  useDocumentTitle('Library desk');
  // The day sits in the URL so a reload or a shared link shows the same day.
  const [params, setParams] = useSearchParams();
  const requested = params.get('date') ?? '';
  const pickups = useDeskPickups(requested);
  const [message, setMessage] = useState('');
  const messageRef = useRef<HTMLParagraphElement>(null);
  const dateId = useId();

  const onChanged = (text: string) => {
    setMessage(text);
    // The buttons just used disappear with the change; the announcement takes the focus.
    requestAnimationFrame(() => messageRef.current?.focus());
  };

  const onDate = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('date', value);
    else next.delete('date');
    setParams(next, { replace: true });
    setMessage('');
  };

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Library desk"
        lead="Check copies out and in by barcode, hand out reserved copies in their pickup slots, mark the people who did not come, and renew or take back loans."
        actions={
          <>
            <ButtonLink to={ROUTES.deskCatalogue} variant="outline">
              Catalogue: items and copies
            </ButtonLink>
            <ButtonLink to={ROUTES.deskPeople} variant="outline">
              People: roles and accounts
            </ButtonLink>
            <ButtonLink to={ROUTES.deskModeration} variant="outline">
              Moderation: reported messages
            </ButtonLink>
            <ButtonLink to={ROUTES.deskInsights} variant="outline">
              Insights
            </ButtonLink>
          </>
        }
      />
      <DeskToday />
      <CheckInOutPanel />
      <div className={`${formStyles.field} ${styles.dateField}`}>
        <label htmlFor={dateId} className={formStyles.label}>
          Date
        </label>
        <input
          id={dateId}
          type="date"
          className={formStyles.input}
          // Until a day is chosen, the server's today (in the library's time zone) is shown.
          value={requested || pickups.data?.date || ''}
          onChange={(event) => onDate(event.target.value)}
        />
      </div>
      <p ref={messageRef} tabIndex={-1} role="status" className={styles.message}>
        {message}
      </p>
      {pickups.isPending ? (
        <p role="status">Loading the day’s pickups…</p>
      ) : pickups.isError ? (
        <FormMessage>The pickups could not be loaded: {pickups.error.message}</FormMessage>
      ) : (
        <section aria-labelledby="desk-pickups-title">
          <h2 id="desk-pickups-title" className={styles.sectionTitle}>
            Pickups on {pickups.data.formattedDate}
          </h2>
          <div className={styles.slots}>
            {pickups.data.slots.map((slot, index) => (
              <section
                key={slot.timeSlot}
                className={styles.slot}
                aria-labelledby={`desk-slot-${index}`}
              >
                <h3 id={`desk-slot-${index}`} className={styles.slotTitle}>
                  {slot.timeSlot}
                </h3>
                {slot.reservations.length === 0 ? (
                  <p className={styles.empty}>No reservations in this slot.</p>
                ) : (
                  <ul className={recordStyles.list}>
                    {slot.reservations.map((reservation) => (
                      <DeskReservationItem
                        key={reservation.reservationId}
                        reservation={reservation}
                        moves={['no_show']}
                        checkOut
                        headingLevel={4}
                        onChanged={onChanged}
                      />
                    ))}
                  </ul>
                )}
              </section>
            ))}
          </div>
        </section>
      )}
      <DeskLoans />
      <DeskActivity />
    </div>
  );
}
