/**
 * The product's screen routes (product spec section 2). The web router is built from these,
 * and the server uses them to tell a known screen (200) from an unknown one (404) on a deep link.
 */
export const ROUTES = {
  landing: '/',
  signIn: '/signin',
  signUp: '/signup',
  studentHome: '/userprofile',
  guest: '/guest',
  facultyHome: '/facultyprofile',
  discussionForum: '/userprofile/discussion-forum',
  chatRoom: '/room/:roomName',
  librarySearch: '/userprofile/openlibrary',
  resourceRequest: '/resourse-req',
  resourceRequestAlias: '/resource-request',
  publish: '/publish',
  reader: '/reader',
  requests: '/requests',
  reservation: '/offline-book-service',
  /** Librarians: today's pickups by slot, collected, no-show and returned copies. */
  libraryDesk: '/desk',
  /** Librarians: search the whole catalogue, withdrawn items too, and add an item. */
  deskCatalogue: '/desk/catalogue',
  /** Librarians: a new item's empty form (a fixed segment, so it is never taken for an id). */
  deskCatalogueNew: '/desk/catalogue/new',
  /** Librarians: one item's details, copies and history. */
  deskCatalogueItem: '/desk/catalogue/:id',
  /** Librarians: find people, change their role, disable or re-enable their account. */
  deskPeople: '/desk/people',
  /** Librarians: reported chat messages, the actions on them and their history (issue 26). */
  deskModeration: '/desk/moderation',
  /** Librarians: library insights (issue 27), counts only, never one person's activity. */
  deskInsights: '/desk/insights',
  forgotPassword: '/forgot-password',
  /** Anyone signed in: their own profile fields and password ("My account"). */
  account: '/account',
  /** Anyone signed in: their notices, newest first, with the unread ones marked (issue 21). */
  notices: '/notices',
  /** Anyone, signed in or not: an e-mail's one-click unsubscribe link, `?token=` (issue 21). */
  unsubscribe: '/unsubscribe',
  /** Anyone signed in: their saved items and reading lists ("My shelf", issue 24). */
  shelf: '/shelf',
  /** Anyone signed in with the link: a reading list shared read-only (issue 24). */
  sharedList: '/lists/shared/:token',
} as const;

/** Name of a screen route. */
export type RouteName = keyof typeof ROUTES;

/**
 * Builds the path of a chat room, encoding the room name as one path segment. A lone surrogate
 * (which no stored name holds, and `encodeURIComponent` refuses) becomes U+FFFD rather than a throw.
 */
export function roomPath(roomName: string): string {
  // With the u flag a surrogate pair is one code point, so only lone surrogates match.
  return `/room/${encodeURIComponent(roomName.replace(/[\uD800-\uDFFF]/gu, '\uFFFD'))}`;
}

/** The path of an item's screen in the librarians' catalogue. */
export function catalogueItemPath(id: string): string {
  return `/desk/catalogue/${encodeURIComponent(id)}`;
}

/** The path of a reading list shared by link, from its share token. */
export function sharedListPath(token: string): string {
  return `/lists/shared/${encodeURIComponent(token)}`;
}

/** The reservation screen with a book chosen (a catalogue item's "Reserve a copy"). */
export function reserveBookPath(itemId: string): string {
  return `${ROUTES.reservation}?book=${encodeURIComponent(itemId)}`;
}

const patterns = (Object.entries(ROUTES) as [RouteName, string][]).map(([name, route]) => {
  const source = route
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return { name, pattern: new RegExp(`^${source}/?$`) };
});

/** The screen `pathname` (without query string) opens, if it is one of the product's screens. */
export function screenOf(pathname: string): RouteName | undefined {
  if (pathname === '/') return 'landing';
  return patterns.find(({ pattern }) => pattern.test(pathname))?.name;
}

/** True when `pathname` (without query string) is one of the product's screens. */
export function isScreenPath(pathname: string): boolean {
  return screenOf(pathname) !== undefined;
}
