import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import type { Role } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { RequireRole } from './components/auth/require-role.tsx';
import { AppLayout } from './components/layout/app-layout.tsx';
import { ErrorPage } from './routes/error-page.tsx';
import { LandingPage } from './routes/landing/landing-page.tsx';

const STAFF: readonly Role[] = ['faculty', 'librarian'];

/** Wraps a screen in its guard: `null` for public screens, `[]` for any signed-in member. */
function guarded(roles: readonly Role[] | null, element: ReactNode): ReactNode {
  return roles === null ? element : <RequireRole roles={roles}>{element}</RequireRole>;
}

/**
 * The screens, with who may open each (docs/role-matrix.md). The landing page ships in the first
 * bundle; every other screen loads its code on demand.
 */
export function appRoutes(): RouteObject[] {
  return [
    {
      element: <AppLayout />,
      // Shown while a deep link's screen code loads on the first visit.
      hydrateFallbackElement: (
        <AppLayout>
          <p className="container" role="status">
            Loading…
          </p>
        </AppLayout>
      ),
      children: [
        {
          errorElement: <ErrorPage />,
          children: [
            { path: ROUTES.landing, element: <LandingPage /> },
            {
              path: ROUTES.guest,
              lazy: async () => ({
                Component: (await import('./routes/guest/guest-page.tsx')).GuestPage,
              }),
            },
            {
              path: ROUTES.signIn,
              lazy: async () => ({
                Component: (await import('./routes/sign-in/sign-in-page.tsx')).SignInPage,
              }),
            },
            {
              path: ROUTES.signUp,
              lazy: async () => ({
                Component: (await import('./routes/sign-up/sign-up-page.tsx')).SignUpPage,
              }),
            },
            {
              path: ROUTES.forgotPassword,
              lazy: async () => ({
                Component: (await import('./routes/forgot-password/forgot-password-page.tsx'))
                  .ForgotPasswordPage,
              }),
            },
            {
              path: ROUTES.studentHome,
              lazy: async () => {
                const { StudentHomePage } =
                  await import('./routes/student-home/student-home-page.tsx');
                return { element: guarded(['student'], <StudentHomePage />) };
              },
            },
            {
              path: ROUTES.facultyHome,
              lazy: async () => {
                const { FacultyHomePage } =
                  await import('./routes/faculty-home/faculty-home-page.tsx');
                return { element: guarded(STAFF, <FacultyHomePage />) };
              },
            },
            {
              path: ROUTES.discussionForum,
              lazy: async () => {
                const { DiscussionForumPage } =
                  await import('./routes/discussion-forum/discussion-forum-page.tsx');
                return { element: guarded([], <DiscussionForumPage />) };
              },
            },
            {
              path: ROUTES.chatRoom,
              lazy: async () => {
                const { ChatRoomPage } = await import('./routes/chat-room/chat-room-page.tsx');
                return { element: guarded([], <ChatRoomPage />) };
              },
            },
            {
              path: ROUTES.librarySearch,
              lazy: async () => {
                const { LibrarySearchPage } =
                  await import('./routes/library-search/library-search-page.tsx');
                return { element: guarded([], <LibrarySearchPage />) };
              },
            },
            {
              path: ROUTES.reader,
              lazy: async () => {
                const { ReaderPage } = await import('./routes/reader/reader-page.tsx');
                return { element: guarded([], <ReaderPage />) };
              },
            },
            {
              path: ROUTES.publish,
              lazy: async () => {
                const { PublishPage } = await import('./routes/publish/publish-page.tsx');
                return { element: guarded(STAFF, <PublishPage />) };
              },
            },
            ...([ROUTES.resourceRequest, ROUTES.resourceRequestAlias] as const).map(
              (path): RouteObject => ({
                path,
                lazy: async () => {
                  const { ResourceRequestPage } =
                    await import('./routes/resource-request/resource-request-page.tsx');
                  return { element: guarded([], <ResourceRequestPage />) };
                },
              }),
            ),
            {
              path: ROUTES.requests,
              lazy: async () => {
                const { RequestsPage } = await import('./routes/requests/requests-page.tsx');
                return { element: guarded(STAFF, <RequestsPage />) };
              },
            },
            {
              path: ROUTES.reservation,
              lazy: async () => {
                const { ReservationPage } =
                  await import('./routes/reservation/reservation-page.tsx');
                return { element: guarded([], <ReservationPage />) };
              },
            },
            {
              path: ROUTES.libraryDesk,
              lazy: async () => {
                const { LibraryDeskPage } =
                  await import('./routes/library-desk/library-desk-page.tsx');
                return { element: guarded(['librarian'], <LibraryDeskPage />) };
              },
            },
            {
              path: ROUTES.deskCatalogue,
              lazy: async () => {
                const { DeskCataloguePage } =
                  await import('./routes/desk-catalogue/desk-catalogue-page.tsx');
                return { element: guarded(['librarian'], <DeskCataloguePage />) };
              },
            },
            {
              path: ROUTES.deskCatalogueNew,
              lazy: async () => {
                const { NewCatalogueItemPage } =
                  await import('./routes/desk-catalogue/catalogue-item-page.tsx');
                return { element: guarded(['librarian'], <NewCatalogueItemPage />) };
              },
            },
            {
              path: ROUTES.deskCatalogueItem,
              lazy: async () => {
                const { CatalogueItemPage } =
                  await import('./routes/desk-catalogue/catalogue-item-page.tsx');
                return { element: guarded(['librarian'], <CatalogueItemPage />) };
              },
            },
            {
              path: ROUTES.deskPeople,
              lazy: async () => {
                const { DeskPeoplePage } =
                  await import('./routes/desk-people/desk-people-page.tsx');
                return { element: guarded(['librarian'], <DeskPeoplePage />) };
              },
            },
            {
              path: ROUTES.deskModeration,
              lazy: async () => {
                const { DeskModerationPage } =
                  await import('./routes/desk-moderation/desk-moderation-page.tsx');
                return { element: guarded(['librarian'], <DeskModerationPage />) };
              },
            },
            {
              path: ROUTES.deskInsights,
              lazy: async () => {
                const { DeskInsightsPage } =
                  await import('./routes/desk-insights/desk-insights-page.tsx');
                return { element: guarded(['librarian'], <DeskInsightsPage />) };
              },
            },
            {
              path: ROUTES.account,
              lazy: async () => {
                const { AccountPage } = await import('./routes/account/account-page.tsx');
                return { element: guarded([], <AccountPage />) };
              },
            },
            {
              path: ROUTES.notices,
              lazy: async () => {
                const { NoticesPage } = await import('./routes/notices/notices-page.tsx');
                return { element: guarded([], <NoticesPage />) };
              },
            },
            {
              path: ROUTES.shelf,
              lazy: async () => {
                const { ShelfPage } = await import('./routes/shelf/shelf-page.tsx');
                return { element: guarded([], <ShelfPage />) };
              },
            },
            {
              path: ROUTES.sharedList,
              lazy: async () => {
                const { SharedListPage } =
                  await import('./routes/shared-list/shared-list-page.tsx');
                return { element: guarded([], <SharedListPage />) };
              },
            },
            {
              path: ROUTES.unsubscribe,
              lazy: async () => ({
                Component: (await import('./routes/unsubscribe/unsubscribe-page.tsx'))
                  .UnsubscribePage,
              }),
            },
            {
              path: '*',
              lazy: async () => ({
                Component: (await import('./routes/not-found/not-found-page.tsx')).NotFoundPage,
              }),
            },
          ],
        },
      ],
    },
  ];
}

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

const router = createBrowserRouter(appRoutes());

/** The whole web app: data cache and router. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
