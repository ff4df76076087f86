import type { Shelf } from '#contract/http/catalogue.ts';
import { reserveBookPath } from '#contract/routes.ts';
import { JoinWaitingList } from '../records/waiting-list.tsx';
import { ButtonLink } from '../ui/button.tsx';

/** `2 of 3 copies free to reserve`, or that every copy is out. */
export function shelfText(shelf: Shelf): string {
  const copies = `${shelf.total} ${shelf.total === 1 ? 'copy' : 'copies'}`;
  if (shelf.available === 0) {
    return shelf.total === 1 ? 'The one copy is out right now' : `All ${copies} are out right now`;
  }
  return `${shelf.available} of ${copies} free to reserve`;
}

/** Where the copies stand: `Main library (2), Annex (1)`. */
export function shelfPlaces(shelf: Shelf): string {
  return shelf.locations
    .map((place) => `${place.location || 'At the desk'} (${place.total})`)
    .join(', ');
}

/**
 * "Reserve a copy" for a book the library holds copies of, when one is free: it opens the
 * reservation screen at the slots with this book chosen. With every copy out: "Join the waiting
 * list".
 */
export function ReserveCopyLink({
  itemId,
  title,
  shelf,
}: {
  itemId: string;
  title: string;
  shelf: Shelf;
}) {
  if (shelf.available === 0) return <JoinWaitingList bookId={itemId} title={title} />;
  return (
    <ButtonLink
      to={reserveBookPath(itemId)}
      variant="outline"
      aria-label={`Reserve a copy of ${title}`}
    >
      Reserve a copy
    </ButtonLink>
  );
}
