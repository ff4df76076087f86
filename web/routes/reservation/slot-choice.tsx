import { useId } from 'react';
import type { ReservationDays } from '#contract/http/reservations.ts';
import { RESERVATION_HOLD_HOURS } from '#contract/limits.ts';
import styles from './reservation.module.css';

/** The spec's tooltip text, shown as plain text so touch and screen-reader users get it too. */
export const HOLD_NOTE = `A reservation is held for ${RESERVATION_HOLD_HOURS} hours from the selected time.`;

type Day = ReservationDays['days'][number];

/** Step 2's choices: one of the seven days, then one of its slots that is not over yet. */
export function SlotChoice({
  days,
  date,
  timeSlot,
  onDate,
  onSlot,
}: {
  days: readonly Day[];
  date: string;
  timeSlot: string;
  onDate: (day: Day) => void;
  onSlot: (timeSlot: string) => void;
}) {
  const id = useId();
  const day = days.find((candidate) => candidate.date === date);
  return (
    <>
      <fieldset className={styles.choices}>
        <legend>Date</legend>
        <div className={styles.options}>
          {days.map((candidate) => (
            <span key={candidate.date} className={styles.option}>
              <input
                type="radio"
                id={`${id}-date-${candidate.date}`}
                name="reservation-date"
                value={candidate.date}
                checked={candidate.date === date}
                onChange={() => onDate(candidate)}
              />
              <label htmlFor={`${id}-date-${candidate.date}`}>{candidate.formattedDate}</label>
            </span>
          ))}
        </div>
      </fieldset>
      <fieldset className={styles.choices} aria-describedby={`${id}-hold`}>
        <legend>Time slot</legend>
        <p id={`${id}-hold`} className={styles.hold}>
          {HOLD_NOTE}
        </p>
        <div className={styles.options}>
          {(day?.slots ?? []).map((slot, index) => (
            <span key={slot.timeSlot} className={styles.option}>
              <input
                type="radio"
                id={`${id}-slot-${index}`}
                name="reservation-slot"
                value={slot.timeSlot}
                checked={slot.open && slot.timeSlot === timeSlot}
                disabled={!slot.open}
                onChange={() => onSlot(slot.timeSlot)}
              />
              <label htmlFor={`${id}-slot-${index}`}>
                {slot.timeSlot}
                {slot.open ? null : <span className={styles.optionNote}>Already over</span>}
              </label>
            </span>
          ))}
        </div>
      </fieldset>
    </>
  );
}
