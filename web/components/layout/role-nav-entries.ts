import { matchPath } from 'react-router';
import { homePathFor, type Role } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';

/** One link of the top bar's navigation: its label, its screen, and which screens count as it. */
export interface NavEntry {
  label: string;
  to: string;
  /** Current on `to` alone: a home page is not current on the screens nested under its path. */
  end?: boolean;
  /** Route patterns of other screens that belong to this entry (a chat room to the forum). */
  also?: readonly string[];
}

/**
 * The navigation of each role, in the order it shows (docs/role-matrix.md says who may open
 * what; app.tsx's guards enforce it). Adding a screen to a role's bar is one line here.
 */
export const NAV_BY_ROLE: Readonly<Record<Role, readonly NavEntry[]>> = {
  student: [
    { label: 'Home', to: homePathFor('student'), end: true },
    { label: 'Search', to: ROUTES.librarySearch },
    { label: 'Shelf', to: ROUTES.shelf, also: [ROUTES.sharedList] },
    { label: 'Reservations', to: ROUTES.reservation },
    { label: 'Forum', to: ROUTES.discussionForum, also: [ROUTES.chatRoom] },
    { label: 'Requests', to: ROUTES.resourceRequest, also: [ROUTES.resourceRequestAlias] },
  ],
  faculty: [
    { label: 'Home', to: homePathFor('faculty'), end: true },
    { label: 'Publish', to: ROUTES.publish },
    { label: 'Shelf', to: ROUTES.shelf, also: [ROUTES.sharedList] },
    { label: 'Requests', to: ROUTES.requests },
  ],
  librarian: [
    { label: 'Home', to: homePathFor('librarian'), end: true },
    { label: 'Desk', to: ROUTES.libraryDesk },
    { label: 'Catalogue', to: ROUTES.deskCatalogue },
    { label: 'People', to: ROUTES.deskPeople },
    { label: 'Requests', to: ROUTES.requests },
    { label: 'Publish', to: ROUTES.publish },
  ],
};

function matches(entry: NavEntry, pathname: string): boolean {
  if (matchPath({ path: entry.to, end: entry.end ?? false }, pathname)) return true;
  return (entry.also ?? []).some((pattern) => matchPath({ path: pattern }, pathname));
}

/**
 * The entry `pathname` belongs to, if any. When several match (a section and a screen inside
 * it), the most specific wins, so at most one link is ever marked as the current page.
 */
export function currentEntry(entries: readonly NavEntry[], pathname: string): NavEntry | undefined {
  return entries
    .filter((entry) => matches(entry, pathname))
    .reduce<NavEntry | undefined>(
      (best, entry) => (best && best.to.length >= entry.to.length ? best : entry),
      undefined,
    );
}
