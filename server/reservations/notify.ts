import type { Config } from '../config.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { UserRow } from '../users/store.ts';
import type { ReservationRow } from './holds.ts';
import { calendarFile, PICKUP_ALARM_SECONDS } from './ics.ts';
import { formatDate, slotWindow, type TimeSlot } from './calendar.ts';

/**
 * Mails the holder their reservation's details with an `.ics` calendar entry for the pickup
 * slot (over SMTP, or into the outbox folder when no SMTP server is configured).
 */
export async function sendReservationConfirmation(
  { config, mailer, now }: { config: Config; mailer: Mailer; now: () => Date },
  user: UserRow,
  row: ReservationRow,
): Promise<void> {
  const { library } = config;
  const window = slotWindow(row.pickup_date, row.time_slot as TimeSlot, library.timeZone);
  const heldUntil = new Intl.DateTimeFormat('en-US', {
    timeZone: library.timeZone,
    dateStyle: 'full',
    timeStyle: 'short',
  }).format(window.expiresAt);
  const author = row.authors.join(', ');
  const book = author ? `${row.title} by ${author}` : row.title;
  const pickup = `${formatDate(row.pickup_date)}, ${row.time_slot}`;
  const where = `${library.name}, ${library.address}`;
  const text = [
    `Hello ${user.first_name || user.name},`,
    '',
    'Your reservation is confirmed.',
    '',
    `Reservation: ${row.id}`,
    `Book: ${book}`,
    `Pickup: ${pickup}`,
    `Where: ${where}`,
    '',
    `We hold the copy for 24 hours from the start of your slot, until ${heldUntil}.`,
    `To see or cancel your reservations, open ${config.publicUrl}/offline-book-service`,
    'A calendar entry for the pickup is attached; it reminds you an hour before.',
    '',
    library.name,
    `${library.phone} · ${library.email}`,
  ].join('\n');
  await mailer.send({
    to: user.email,
    subject: `Reservation ${row.id}: ${row.title}, ${pickup}`,
    text,
    attachments: [
      {
        filename: `${row.id}.ics`,
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: calendarFile(
          {
            uid: `${row.id}@${new URL(config.publicUrl).hostname}`,
            start: window.startsAt,
            end: window.endsAt,
            stamp: now(),
            summary: `Pick up "${row.title}" at ${library.name}`,
            description: `Reservation ${row.id}: ${book}. The copy is held until ${heldUntil}.`,
            location: where,
            alarmBeforeSeconds: PICKUP_ALARM_SECONDS,
          },
          library.name,
        ),
      },
    ],
  });
}
