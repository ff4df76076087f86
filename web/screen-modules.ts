import type { RouteName } from '#contract/routes.ts';

/**
 * The module (relative to `web/`) each lazily loaded screen's code starts from, as `app.tsx`
 * imports it. The build reads this to list the files each screen needs
 * (`dist/web/screen-preloads.json`), and the server names them in the HTML of a deep link, so the
 * browser fetches a screen's code together with the app's instead of one round trip after it.
 * `screen-modules.test.ts` keeps it in step with `app.tsx`.
 */
export const SCREEN_MODULES: Partial<Record<RouteName, string>> = {
  guest: 'routes/guest/guest-page.tsx',
  signIn: 'routes/sign-in/sign-in-page.tsx',
  signUp: 'routes/sign-up/sign-up-page.tsx',
  forgotPassword: 'routes/forgot-password/forgot-password-page.tsx',
  studentHome: 'routes/student-home/student-home-page.tsx',
  facultyHome: 'routes/faculty-home/faculty-home-page.tsx',
  discussionForum: 'routes/discussion-forum/discussion-forum-page.tsx',
  chatRoom: 'routes/chat-room/chat-room-page.tsx',
  librarySearch: 'routes/library-search/library-search-page.tsx',
  reader: 'routes/reader/reader-page.tsx',
  publish: 'routes/publish/publish-page.tsx',
  resourceRequest: 'routes/resource-request/resource-request-page.tsx',
  resourceRequestAlias: 'routes/resource-request/resource-request-page.tsx',
  requests: 'routes/requests/requests-page.tsx',
  reservation: 'routes/reservation/reservation-page.tsx',
  libraryDesk: 'routes/library-desk/library-desk-page.tsx',
  deskCatalogue: 'routes/desk-catalogue/desk-catalogue-page.tsx',
  deskCatalogueNew: 'routes/desk-catalogue/catalogue-item-page.tsx',
  deskCatalogueItem: 'routes/desk-catalogue/catalogue-item-page.tsx',
  deskPeople: 'routes/desk-people/desk-people-page.tsx',
  deskModeration: 'routes/desk-moderation/desk-moderation-page.tsx',
  deskInsights: 'routes/desk-insights/desk-insights-page.tsx',
  account: 'routes/account/account-page.tsx',
  notices: 'routes/notices/notices-page.tsx',
  unsubscribe: 'routes/unsubscribe/unsubscribe-page.tsx',
  shelf: 'routes/shelf/shelf-page.tsx',
  sharedList: 'routes/shared-list/shared-list-page.tsx',
};

/** Name of the file the build writes beside `index.html`: route name → files to preload. */
export const SCREEN_PRELOADS_FILE = 'screen-preloads.json';
