import ical, {
  ICalAlarmType,
  ICalCalendarMethod,
  ICalEventStatus,
  ICalEventTransparency,
} from 'ical-generator';

/** One calendar event of an `.ics` file (RFC 5545). */
export interface CalendarEvent {
  /** Globally unique, e.g. `RES-100001@library.example`. */
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  location: string;
  /** When the event was written. */
  stamp: Date;
  /** Seconds before the start at which the calendar reminds its owner; none when absent. */
  alarmBeforeSeconds?: number;
}

/** How long before a pickup slot the calendar entry reminds its owner. */
export const PICKUP_ALARM_SECONDS = 60 * 60;

/**
 * A one-event calendar file that calendar programs import (lines ending in CRLF, folded and
 * escaped by `ical-generator`), with a reminder before the event when the event asks for one.
 */
export function calendarFile(event: CalendarEvent, productId: string): string {
  const calendar = ical({
    prodId: { company: productId, product: 'Reservations', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    id: event.uid,
    stamp: event.stamp,
    start: event.start,
    end: event.end,
    summary: event.summary,
    description: event.description,
    location: event.location,
    status: ICalEventStatus.CONFIRMED,
    transparency: ICalEventTransparency.OPAQUE,
    alarms:
      event.alarmBeforeSeconds === undefined
        ? []
        : [
            {
              type: ICalAlarmType.display,
              triggerBefore: event.alarmBeforeSeconds,
              description: event.summary,
            },
          ],
  });
  return calendar.toString();
}
