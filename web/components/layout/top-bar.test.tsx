import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CurrentUser, Role } from '#contract/http/users.ts';
import { catalogueItemPath, ROUTES, roomPath } from '#contract/routes.ts';
import { SESSION_KEY } from '../../api/session.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { TopBar } from './top-bar.tsx';

/** The top bar on any path, with `user` signed in (or a guest), as the layout shows it. */
function renderTopBar(path: string, user: CurrentUser | null) {
  mockApi({ 'GET /users/me': () => ({ body: { user } }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, user);
  const router = createMemoryRouter([{ path: '*', element: <TopBar /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router };
}

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });
const labels = () =>
  within(mainNav())
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
const current = () =>
  within(mainNav())
    .getAllByRole('link')
    .filter((link) => link.getAttribute('aria-current') === 'page')
    .map((link) => link.textContent);
const menuButton = () => screen.getByRole('button', { name: 'Menu' });

const as = (role: Role) => testUser({ role });

describe('top bar navigation', () => {
  it('gives a student their screens, next to the name link and Sign Out', () => {
    renderTopBar(ROUTES.librarySearch, as('student'));
    expect(labels()).toEqual([
      ['Home', '/userprofile'],
      ['Search', ROUTES.librarySearch],
      ['Shelf', ROUTES.shelf],
      ['Reservations', ROUTES.reservation],
      ['Forum', ROUTES.discussionForum],
      ['Requests', ROUTES.resourceRequest],
    ]);
    const account = screen.getByRole('navigation', { name: 'Account' });
    expect(within(account).getByRole('link', { name: 'Home of Ada' }).getAttribute('href')).toBe(
      '/userprofile',
    );
    expect(within(account).getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });

  it('gives faculty Home, Publish, My shelf and Requests', () => {
    renderTopBar(ROUTES.publish, as('faculty'));
    expect(labels()).toEqual([
      ['Home', '/facultyprofile'],
      ['Publish', ROUTES.publish],
      ['Shelf', ROUTES.shelf],
      ['Requests', ROUTES.requests],
    ]);
    expect(current()).toEqual(['Publish']);
  });

  it('gives a librarian the desk and the staff screens, with their home', () => {
    renderTopBar(ROUTES.libraryDesk, as('librarian'));
    expect(labels()).toEqual([
      ['Home', '/facultyprofile'],
      ['Desk', ROUTES.libraryDesk],
      ['Catalogue', ROUTES.deskCatalogue],
      ['People', ROUTES.deskPeople],
      ['Requests', ROUTES.requests],
      ['Publish', ROUTES.publish],
    ]);
    expect(current()).toEqual(['Desk']);
  });

  it('marks Catalogue, not Desk, on the catalogue and its items', () => {
    renderTopBar(catalogueItemPath('3f1c2e4a-0000-4000-8000-000000000001'), as('librarian'));
    expect(current()).toEqual(['Catalogue']);
  });

  it('marks People, not Desk, on the people screen', () => {
    renderTopBar(ROUTES.deskPeople, as('librarian'));
    expect(current()).toEqual(['People']);
  });

  it.each([
    [ROUTES.studentHome, ['Home']],
    // Search lives under the home's path; only Search is the current page there.
    [ROUTES.librarySearch, ['Search']],
    [`${ROUTES.librarySearch}?tab=courses`, ['Search']],
    [ROUTES.discussionForum, ['Forum']],
    [roomPath('Physics 101'), ['Forum']],
    [ROUTES.resourceRequestAlias, ['Requests']],
    [ROUTES.reader, []],
  ])('marks the current page on %s for screen readers', (path, expected) => {
    renderTopBar(path, as('student'));
    expect(current()).toEqual(expected);
  });

  it('keeps a guest’s bar as it was: Sign In and Sign Up, no navigation or menu', () => {
    renderTopBar(ROUTES.landing, null);
    const account = screen.getByRole('navigation', { name: 'Account' });
    expect(within(account).getByRole('link', { name: 'Sign In' })).toBeTruthy();
    expect(within(account).getByRole('link', { name: 'Sign Up' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Menu' })).toBeNull();
  });
});

describe('top bar menu (narrow screens)', () => {
  it('is a disclosure of the panel holding both navigations', () => {
    renderTopBar(ROUTES.studentHome, as('student'));
    const panel = document.getElementById(menuButton().getAttribute('aria-controls') ?? '');
    expect(panel?.contains(mainNav())).toBe(true);
    expect(panel?.contains(screen.getByRole('navigation', { name: 'Account' }))).toBe(true);
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(panel?.hasAttribute('data-open')).toBe(false);

    fireEvent.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    expect(panel?.hasAttribute('data-open')).toBe(true);

    fireEvent.click(menuButton());
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on Escape and gives the focus back to the Menu button', () => {
    renderTopBar(ROUTES.studentHome, as('student'));
    fireEvent.click(menuButton());
    const forum = within(mainNav()).getByRole('link', { name: 'Forum' });
    forum.focus();
    fireEvent.keyDown(forum, { key: 'Escape' });
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton());
  });

  it('closes when a link is chosen, even the current page’s', () => {
    renderTopBar(ROUTES.studentHome, as('student'));
    fireEvent.click(menuButton());
    fireEvent.click(within(mainNav()).getByRole('link', { name: 'Home' }));
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes when the screen changes by other means', async () => {
    const { router } = renderTopBar(ROUTES.studentHome, as('student'));
    fireEvent.click(menuButton());
    await act(() => router.navigate(ROUTES.reservation));
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
    expect(current()).toEqual(['Reservations']);
  });

  it('closes on a press outside the bar, and stays open on one inside it', () => {
    renderTopBar(ROUTES.studentHome, as('student'));
    fireEvent.click(menuButton());
    fireEvent.pointerDown(mainNav());
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    fireEvent.pointerDown(document.body);
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });
});
