import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { ROUTES, type RouteName } from '../contract/routes.ts';
import { AppLayout } from './components/layout/app-layout.tsx';
import { ErrorPage } from './routes/error-page.tsx';
import { LandingPage } from './routes/landing/landing-page.tsx';
import { UPCOMING_SCREENS } from './routes/upcoming/screens.ts';

/**
 * The screens. The landing page ships in the first bundle; every other screen loads its code on
 * demand, so a first visit downloads only what it shows.
 */
export function appRoutes(): RouteObject[] {
  const upcoming = (
    Object.entries(UPCOMING_SCREENS) as [
      RouteName,
      NonNullable<(typeof UPCOMING_SCREENS)[RouteName]>,
    ][]
  ).map(([name, screen]): RouteObject => ({
    path: ROUTES[name],
    lazy: async () => {
      const { UpcomingPage } = await import('./routes/upcoming/upcoming-page.tsx');
      return { element: <UpcomingPage screen={screen} /> };
    },
  }));

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
            ...upcoming,
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
