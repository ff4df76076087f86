import type { RouteName } from '../../../contract/routes.ts';

/** What a screen is for, shown until that screen is built. */
export interface UpcomingScreen {
  title: string;
  purpose: string;
  /** Who may open it: anyone, any signed-in member, or faculty and librarians. */
  audience: 'everyone' | 'signed-in' | 'faculty';
}

/**
 * Screens of the route table whose features are still being built (chat). Each entry is removed
 * when its real screen lands.
 */
export const UPCOMING_SCREENS: Partial<Record<RouteName, UpcomingScreen>> = {
  discussionForum: {
    title: 'Discussion forum',
    purpose: 'Join public chat rooms about your courses or start one of your own.',
    audience: 'signed-in',
  },
  chatRoom: {
    title: 'Chat room',
    purpose: 'Talk in real time with everyone in this room.',
    audience: 'signed-in',
  },
};
