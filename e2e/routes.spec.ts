import { ROUTES } from '../contract/routes.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

const SCREEN_HEADINGS: Record<keyof typeof ROUTES, RegExp> = {
  landing: /Bridging the Gap/,
  signIn: /^Sign in$/,
  signUp: /^Sign up$/,
  studentHome: /^Student home$/,
  guest: /^Search the library$/,
  facultyHome: /^Faculty home$/,
  discussionForum: /^Discussion forum$/,
  chatRoom: /^Chat room$/,
  librarySearch: /^Library search$/,
  resourceRequest: /^Request a resource$/,
  resourceRequestAlias: /^Request a resource$/,
  publish: /^Publish course material$/,
  reader: /^Reader$/,
  requests: /^Resource requests$/,
  reservation: /^Offline book service$/,
  forgotPassword: /^Reset your password$/,
};

test.describe('every route of the route table', () => {
  for (const [name, route] of Object.entries(ROUTES) as [keyof typeof ROUTES, string][]) {
    const url = route.replace(':roomName', encodeURIComponent('Physics 101'));
    test(`${url} resolves on a deep link and a reload`, async ({ page }) => {
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toHaveText(SCREEN_HEADINGS[name]);
      await page.reload();
      await expect(heading).toHaveText(SCREEN_HEADINGS[name]);
      await expect(
        page.getByRole('banner').getByRole('link', { name: 'Digi Library' }),
      ).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText('Opening hours');
    });
  }

  test('a screen that comes with sign-in says so plainly and offers a way home', async ({
    page,
  }) => {
    await page.goto('/offline-book-service');
    await expect(page.getByText('Coming with sign-in')).toBeVisible();
    await expect(page.getByText(/Reserve a physical book/)).toBeVisible();
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
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
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
  });
});
