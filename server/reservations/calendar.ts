import {
  RESERVATION_DAYS_AHEAD,
  RESERVATION_HOLD_HOURS,
  RESERVATION_TIME_SLOTS,
} from '#contract/limits.ts';

/** One of the five pickup slots, e.g. `2:00-2:30 PM`. */
export type TimeSlot = (typeof RESERVATION_TIME_SLOTS)[number];

const MINUTE = 60_000;

/** Hours and minutes of a slot's start and end, read from its label (`2:00-2:30 PM` → 14:00–14:30). */
export function slotTimes(slot: TimeSlot): { start: [number, number]; end: [number, number] } {
  const match = /^(\d{1,2}):(\d{2})-(\d{1,2}):(\d{2}) (AM|PM)$/.exec(slot);
  if (!match) throw new Error(`Unreadable time slot ${slot}`);
  const to24 = (hour: number) => (match[5] === 'PM' && hour < 12 ? hour + 12 : hour);
  return {
    start: [to24(Number(match[1])), Number(match[2])],
    end: [to24(Number(match[3])), Number(match[4])],
  };
}

/** The wall-clock date and time at `instant` in `timeZone`, as numbers. */
function wallClock(instant: number, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
  return parts;
}

/** How far `timeZone`'s clocks are ahead of UTC at `instant`, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
  const p = wallClock(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the clocks of `timeZone` read `date` (`YYYY-MM-DD`) `hour`:`minute`.
 * Two passes settle the offset across a daylight-saving change.
 */
export function zonedInstant(date: string, hour: number, minute: number, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let instant = wall - zoneOffset(wall, timeZone);
  const second = wall - zoneOffset(instant, timeZone);
  if (second !== instant) instant = second;
  return new Date(instant);
}

/** The date (`YYYY-MM-DD`) the clocks of `timeZone` show at `instant`. */
export function localDate(instant: Date, timeZone: string): string {
  const p = wallClock(instant.getTime(), timeZone);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** A date as people read it: `Monday, November 23, 2026`. */
export function formatDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(new Date(Date.UTC(year, month - 1, day)));
}

/** When a slot on `date` begins and ends, and when a hold made for it ends. */
export function slotWindow(date: string, slot: TimeSlot, timeZone: string) {
  const { start, end } = slotTimes(slot);
  const startsAt = zonedInstant(date, start[0], start[1], timeZone);
  return {
    startsAt,
    endsAt: zonedInstant(date, end[0], end[1], timeZone),
    expiresAt: new Date(startsAt.getTime() + RESERVATION_HOLD_HOURS * 60 * MINUTE),
  };
}

/** The dates one may reserve for at `now`: today and the next six days in the library's zone. */
export function reservableDates(now: Date, timeZone: string): string[] {
  const today = localDate(now, timeZone);
  return Array.from({ length: RESERVATION_DAYS_AHEAD }, (_, index) => addDays(today, index));
}

/** A slot can still be chosen until it is over. */
export function isSlotOpen(date: string, slot: TimeSlot, now: Date, timeZone: string): boolean {
  return slotWindow(date, slot, timeZone).endsAt.getTime() > now.getTime();
}

/** The seven days with each slot and whether it is still open, for the reservation screen. */
export function reservationDays(now: Date, timeZone: string) {
  return reservableDates(now, timeZone).map((date) => ({
    date,
    formattedDate: formatDate(date),
    slots: RESERVATION_TIME_SLOTS.map((timeSlot) => ({
      timeSlot,
      open: isSlotOpen(date, timeSlot, now, timeZone),
    })),
  }));
}

/**
 * The pickup date a client meant. `YYYY-MM-DD` is taken as it is; an ISO date-time (the old
 * client sent the chosen day's local midnight) is read as the date it falls on in the library's
 * zone. Null when it is not a real date.
 */
export function requestedDate(value: string, timeZone: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value
      ? value
      : null;
  }
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : localDate(parsed, timeZone);
}
