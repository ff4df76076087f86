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
  forgotPassword: '/forgot-password',
} as const;

/** Name of a screen route. */
export type RouteName = keyof typeof ROUTES;

/** Builds the path of a chat room, encoding the room name as one path segment. */
export function roomPath(roomName: string): string {
  return `/room/${encodeURIComponent(roomName)}`;
}

const patterns = Object.values(ROUTES).map((route) => {
  const source = route
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}/?$`);
});

/** True when `pathname` (without query string) is one of the product's screens. */
export function isScreenPath(pathname: string): boolean {
  return pathname === '/' || patterns.some((pattern) => pattern.test(pathname));
}
