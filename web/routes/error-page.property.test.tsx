import { render, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { assertRenders, expectInert, hostileText } from '../test/hostile-text.ts';
import { ErrorPage } from './error-page.tsx';
import { NotFoundPage } from './not-found/not-found-page.tsx';

/*
 * The fallback screens read the address a person followed: the 404 screen shows it, the error
 * screen links to it to reload. Property: a hostile address shows as text, never as markup, and
 * the reload link stays on this site ('//host' and '/\host' are other sites' addresses).
 */

/**
 * Paths as a typed or linked address gives them to the app: the browser's own reading of it
 * (tabs and newlines dropped, '\\' read as '/', the rest percent-encoded), odd ones included.
 */
const browserPath = (typed: string) => new URL(`http://localhost${typed}`).pathname;

const path = fc
  .oneof(
    hostileText.map((text) => `/${text}`),
    hostileText.map((text) => `/${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/gu, ''))}`),
    fc.constantFrom(
      '//evil.example/x',
      '///evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      '/\t/evil.example',
      '/\n//evil.example',
      '/%2F%2Fevil.example',
    ),
  )
  .map(browserPath);

function renderAt(entry: string, element: ReactNode, failing = false) {
  const router = createMemoryRouter(
    [
      failing
        ? {
            path: '*',
            loader: () => {
              throw new Error('the screen failed');
            },
            element: <p>never shown</p>,
            errorElement: <ErrorPage />,
          }
        : { path: '*', element },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** The error screen's reload link, once the failed load has shown it. */
const findReload = () =>
  waitFor(() => {
    const link = [...document.querySelectorAll('a')].find(
      (a) => a.textContent === 'Reload the page',
    );
    expect(link).toBeDefined();
    return link!;
  });

/** True for an href a click follows on this site. */
function staysOnSite(href: string | null): boolean {
  if (href === null) return false;
  const origin = window.location.origin;
  return new URL(href, origin).origin === origin;
}

describe('fallback screens (fast-check)', () => {
  // The router warns about an address with a malformed %-escape, which these tests send.
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it('the 404 screen shows a hostile address as text', async () => {
    await assertRenders(
      path,
      (entry) => {
        const router = renderAt(entry, <NotFoundPage />);
        expect(document.querySelector('code')?.textContent).toBe(router.state.location.pathname);
        expectInert();
      },
      12,
    );
  });

  it('the error screen’s reload link stays on this site, whatever the address', async () => {
    await assertRenders(
      path,
      async (entry) => {
        renderAt(entry, null, true);
        const reload = await findReload();
        expect(staysOnSite(reload.getAttribute('href')), reload.outerHTML).toBe(true);
        expectInert();
      },
      12,
    );
  });

  it('reloads a //host address as a path on this site (regression)', async () => {
    renderAt('//evil.example/x', null, true);
    const reload = await findReload();
    expect(reload.getAttribute('href')).toBe('/evil.example/x');
  });
});
