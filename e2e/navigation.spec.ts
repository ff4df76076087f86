import type { Page } from '@playwright/test';
import { E2E_LIBRARIAN, newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** Each role, the screen it is checked on, that screen's link and the whole bar in order. */
const ROLES = [
  {
    role: 'student',
    path: '/userprofile/openlibrary',
    current: 'Search',
    links: ['Home', 'Search', 'Shelf', 'Reservations', 'Forum', 'Requests'],
  },
  {
    role: 'faculty',
    path: '/requests',
    current: 'Requests',
    links: ['Home', 'Publish', 'Shelf', 'Requests'],
  },
  {
    role: 'librarian',
    path: '/desk',
    current: 'Desk',
    links: ['Home', 'Desk', 'Catalogue', 'People', 'Requests', 'Publish'],
  },
] as const;

async function signIn(page: Page, baseURL: string, role: (typeof ROLES)[number]['role']) {
  if (role === 'librarian') {
    // Librarians are made by user:create, never by sign-up (e2e/data-template.ts).
    await page.goto('/signin');
    await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
    await expect(page).toHaveURL(/\/facultyprofile$/);
    return E2E_LIBRARIAN.firstName;
  }
  const person = newPerson({ role });
  await registerViaApi(page.request, baseURL, person);
  return person.firstName;
}

/** Presses Tab `count` times from where the focus is, and returns the text of each control reached. */
async function tab(page: Page, count: number): Promise<string[]> {
  const reached: string[] = [];
  for (let step = 0; step < count; step += 1) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
  }
  return reached;
}

const focusBrand = (page: Page) =>
  page.getByRole('banner').getByRole('link', { name: 'Digi Library' }).focus();

test.describe('navigation by role', () => {
  for (const { role, path, current, links } of ROLES) {
    test(`a ${role} has their links inline at 1280 px, the current one marked`, async ({
      page,
      baseURL,
    }, testInfo) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      const firstName = await signIn(page, baseURL!, role);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);

      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link')).toHaveText([...links]);
      await expect(nav.getByRole('link', { name: current, exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(nav.locator('[aria-current]')).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();

      await focusBrand(page);
      expect(await tab(page, links.length + 3)).toEqual([
        ...links,
        `Home of ${firstName}`,
        'Account',
        'Sign Out',
      ]);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`nav-${role}-1280.png`) });
    });

    test(`a ${role} opens their links from the Menu button at 390 px`, async ({
      page,
      baseURL,
    }, testInfo) => {
      await page.setViewportSize({ width: 390, height: 844 });
      const firstName = await signIn(page, baseURL!, role);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);

      const menu = page.getByRole('button', { name: 'Menu' });
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(nav).toBeHidden();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);

      // The keyboard opens the menu and walks through it in order.
      await focusBrand(page);
      expect(await tab(page, 1)).toEqual(['Menu']);
      await page.keyboard.press('Enter');
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await expect(nav.getByRole('link')).toHaveText([...links]);
      await expect(nav.getByRole('link', { name: current, exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
      expect(await tab(page, links.length + 3)).toEqual([
        ...links,
        `Home of ${firstName}`,
        'Account',
        'Sign Out',
      ]);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`nav-${role}-390.png`) });

      // Escape closes it and gives the focus back to the button.
      await page.keyboard.press('Escape');
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(menu).toBeFocused();
      await expect(nav).toBeHidden();

      // Choosing a link closes it, and the new screen's link is the current one.
      await menu.click();
      await nav.getByRole('link', { name: 'Home', exact: true }).click();
      const home = role === 'student' ? '/userprofile' : '/facultyprofile';
      await expect(page).toHaveURL(new RegExp(`${home}$`));
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await menu.click();
      await expect(nav.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute(
        'aria-current',
        'page',
      );
    });
  }

  test('a long first name still fits beside a student’s links at 1024 px', async ({
    page,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize({ width: 1024, height: 800 });
    await registerViaApi(
      page.request,
      baseURL!,
      newPerson({ firstName: 'Maximilianus-Bartholomew' }),
    );
    await page.goto('/userprofile/discussion-forum');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveCount(6);
    // Every control stays inside the bar's padding: the name gives way, not the layout.
    const spill = await page.getByRole('banner').evaluate((banner) => {
      const inner = banner.querySelector('.container')!;
      const edge =
        inner.getBoundingClientRect().right - parseFloat(getComputedStyle(inner).paddingRight);
      const controls = [...inner.querySelectorAll('a, button')];
      return Math.max(...controls.map((control) => control.getBoundingClientRect().right)) - edge;
    });
    expect(spill).toBeLessThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('nav-student-1024-long-name.png') });
  });
});
