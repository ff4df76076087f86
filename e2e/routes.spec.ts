import { ROUTES } from '#contract/routes.ts';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, test, expectNoSidewaysScroll } from './fixtures.ts';

/** What a guest sees on a deep link: the screen's own heading, or the sign-in screen it guards. */
const GUEST_HEADINGS: Record<keyof typeof ROUTES, RegExp> = {
  landing: /Bridging the Gap/,
  signIn: /^Sign in$/,
  signUp: /^Sign up$/,
  guest: /^Search the library$/,
  forgotPassword: /^Reset your password$/,
  studentHome: /^Sign in$/,
  facultyHome: /^Sign in$/,
  discussionForum: /^Sign in$/,
  chatRoom: /^Sign in$/,
  librarySearch: /^Sign in$/,
  resourceRequest: /^Sign in$/,
  resourceRequestAlias: /^Sign in$/,
  publish: /^Sign in$/,
  reader: /^Sign in$/,
  requests: /^Sign in$/,
  reservation: /^Sign in$/,
  libraryDesk: /^Sign in$/,
  deskCatalogue: /^Sign in$/,
  deskCatalogueNew: /^Sign in$/,
  deskCatalogueItem: /^Sign in$/,
  deskPeople: /^Sign in$/,
  deskModeration: /^Sign in$/,
  deskInsights: /^Sign in$/,
  account: /^Sign in$/,
  notices: /^Sign in$/,
  // Without `?token=` there is nothing to unsubscribe from.
  unsubscribe: /^This unsubscribe link did not work$/,
  shelf: /^Sign in$/,
  sharedList: /^Sign in$/,
};

test.describe('every route of the route table', () => {
  for (const [name, route] of Object.entries(ROUTES) as [keyof typeof ROUTES, string][]) {
    const url = route.replace(':roomName', encodeURIComponent('Physics 101'));
    test(`${url} resolves on a deep link and a reload`, async ({ page }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toHaveText(GUEST_HEADINGS[name]);
      await page.reload();
      await expect(heading).toHaveText(GUEST_HEADINGS[name]);
      await expect(
        page.getByRole('banner').getByRole('link', { name: 'Digi Library' }),
      ).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText('Opening hours');
    });
  }

  test('a signed-in member opens the discussion forum and is asked for a chat username', async ({
    page,
    baseURL,
  }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto('/userprofile/discussion-forum');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Discussion Forum');
    await expect(page.getByRole('heading', { name: 'Choose a username' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('client-side navigation moves focus to the new screen', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign up');
    await expect(page.locator('main')).toBeFocused();
    await expect(page).toHaveTitle('Sign up · Digi Library');
  });
});

test.describe('unknown routes', () => {
  test('show a real 404 page with a way home', async ({ page }) => {
    const response = await page.goto('/definitely/not/here');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page.getByText('/definitely/not/here')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Bridging the Gap in Academic Resource Access',
    );
  });

  test('the 404 page reads well at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/nope');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  });
});
