import { ROUTES } from '#contract/routes.ts';

/** A catalogue item's details, as the library search shows them (`?item=`). */
export function itemDetailPath(itemId: string): string {
  return `${ROUTES.librarySearch}?item=${encodeURIComponent(itemId)}`;
}
