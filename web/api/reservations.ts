import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deskPickupsResponseSchema,
  deskReservationResponseSchema,
  myReservationsResponseSchema,
  reservationBooksResponseSchema,
  reservationDaysResponseSchema,
  reservationResponseSchema,
  type ReservationRequest,
} from '#contract/http/reservations.ts';
import { apiPost, apiRequest } from './client.ts';

/**
 * Every cached reservation answer sits under this key: a reservation, a cancellation or a desk
 * move changes free copies, the holder's list and the desk's day at once, so all are refreshed.
 */
export const RESERVATIONS_KEY = ['reservations'] as const;

/** What the book picker asks for: words, only free copies, a page; or one book by id. */
export interface ReservationBooksSearch {
  q?: string;
  availableOnly?: boolean;
  page?: number;
  pageSize?: number;
  id?: string;
}

/** One page of the reservable books with their free copies, and how many match in all. */
export function useReservationBooks(search: ReservationBooksSearch = {}, enabled = true) {
  const params = new URLSearchParams();
  if (search.id) params.set('id', search.id);
  if (search.q) params.set('q', search.q);
  if (search.availableOnly) params.set('availableOnly', 'true');
  if (search.page && search.page > 1) params.set('page', String(search.page));
  if (search.pageSize) params.set('pageSize', String(search.pageSize));
  const query = params.toString();
  return useQuery({
    queryKey: [...RESERVATIONS_KEY, 'books', query],
    queryFn: () =>
      apiRequest(
        `/users/reservation-books${query ? `?${query}` : ''}`,
        reservationBooksResponseSchema,
      ),
    // The page shown stays while the next one loads: the list does not jump to a spinner.
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The seven days and their slots, as the library's clock sees them. */
export function useReservationDays() {
  return useQuery({
    queryKey: [...RESERVATIONS_KEY, 'days'],
    queryFn: () => apiRequest('/users/reservation-days', reservationDaysResponseSchema),
  });
}

/** The signed-in person's reservations, upcoming first. */
export function useMyReservations() {
  return useQuery({
    queryKey: [...RESERVATIONS_KEY, 'mine'],
    queryFn: async () =>
      (await apiRequest('/users/reservations', myReservationsResponseSchema)).payload,
  });
}

/**
 * A new key for one confirmation attempt. `crypto.randomUUID` exists only on secure origins
 * (https or localhost), so a plain-http address inside the campus network gets a v4 UUID built
 * from `getRandomValues` instead.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Reserves a copy. The `Idempotency-Key` lets a retried attempt (after a lost answer) get the
 * first attempt's reservation instead of a second one.
 */
export function useReserveBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ReservationRequest; idempotencyKey: string }) =>
      apiPost('/users/reservation', reservationResponseSchema, body, {
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    // Refused for want of a free copy means the books list is stale too.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: RESERVATIONS_KEY }),
  });
}

/** Cancels one of the signed-in person's active reservations. */
export function useCancelReservation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reservationId: string) =>
      apiRequest(
        `/users/reservations/${encodeURIComponent(reservationId)}`,
        reservationResponseSchema,
        { method: 'DELETE' },
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: RESERVATIONS_KEY }),
  });
}

/** The desk's day: pickups by slot and copies on loan. An empty `date` means the library's today. */
export function useDeskPickups(date: string) {
  return useQuery({
    queryKey: [...RESERVATIONS_KEY, 'desk', date],
    queryFn: () =>
      apiRequest(
        `/desk/pickups${date ? `?${new URLSearchParams({ date }).toString()}` : ''}`,
        deskPickupsResponseSchema,
      ),
  });
}

/** A desk move on one reservation: collected, no-show or returned. */
export type DeskMove = 'collected' | 'no_show' | 'returned';

/** Records a desk move (librarians). */
export function useDeskStatusChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reservationId, status }: { reservationId: string; status: DeskMove }) =>
      apiPost(
        `/desk/reservations/${encodeURIComponent(reservationId)}`,
        deskReservationResponseSchema,
        { status },
        { method: 'PATCH' },
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: RESERVATIONS_KEY }),
  });
}
