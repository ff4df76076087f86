import type { Locator, Page } from '@playwright/test';
import { newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Presses Tab until `target` has the focus, as a keyboard user reaches it. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 80; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the search box');
}

/** Empties the focused box as a keyboard user does. */
async function clear(page: Page): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
}

/** The option the combobox names as highlighted. */
async function highlighted(box: Locator): Promise<Locator> {
  const id = await box.getAttribute('aria-activedescendant');
  expect(id).toBeTruthy();
  return box.page().locator(`[id="${id}"]`);
}

/** Presses ↓ until the highlighted option reads `name`. */
async function arrowTo(box: Locator, name: RegExp): Promise<void> {
  const count = await box.page().getByRole('option').count();
  for (let presses = 0; presses < count; presses += 1) {
    await box.press('ArrowDown');
    if (name.test((await (await highlighted(box)).textContent()) ?? '')) return;
  }
  throw new Error(`No option reads ${name}`);
}

for (const [label, viewport] of [
  ['1280 px', WIDE],
  ['390 px', PHONE],
] as const) {
  test.describe(`search suggestions at ${label}`, () => {
    test.use({ viewport });

    test('the landing page suggests a title as one types and Enter opens it', async ({
      page,
      baseURL,
    }) => {
      const person = newPerson();
      await registerViaApi(page.request, baseURL!, person);
      await page.context().clearCookies();
      await page.goto('/');
      const box = page.getByRole('combobox', { name: 'Search publications' });
      await tabTo(page, box);
      await expect(box).toHaveAttribute('aria-expanded', 'false');

      await page.keyboard.type('christmas car');
      await expect(box).toHaveAttribute('aria-expanded', 'true');
      const list = page.getByRole('listbox', { name: 'Suggestions' });
      await expect(box).toHaveAttribute('aria-controls', (await list.getAttribute('id'))!);
      const option = list.getByRole('option', { name: /^A Christmas Carol\s*, Book/ }).first();
      await expect(option).toBeVisible();
      await expect(option.locator('mark')).toHaveText(['Christmas', 'Car']);
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);

      await arrowTo(box, /^A Christmas Carol,/);
      await expect(await highlighted(box)).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      // The item opens straight away; a guest signs in first and lands on it.
      await expect(page).toHaveURL(/\/signin$/);
      await signInThroughForm(page, person);
      await expect(
        page.getByRole('heading', { level: 2, name: 'A Christmas Carol' }),
      ).toBeVisible();
    });

    test('the library search: Escape closes, Enter searches, an author option searches by author', async ({
      page,
      baseURL,
    }) => {
      await registerViaApi(page.request, baseURL!, newPerson());
      await page.goto('/userprofile/openlibrary');
      const box = page.getByRole('combobox', { name: 'Keywords' });
      await tabTo(page, box);

      await page.keyboard.type('time mach');
      await expect(
        page.getByRole('option', { name: /^The Time Machine\s*, Book/ }).first(),
      ).toBeVisible();
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Escape');
      await expect(box).toHaveAttribute('aria-expanded', 'false');
      await expect(box).not.toHaveAttribute('aria-activedescendant');
      await expect(box).toHaveValue('time mach');
      // Nothing highlighted: Enter runs the search as typed.
      await box.evaluate((element) => element.setAttribute('data-before-search', ''));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/q=time\+mach/);
      // The fields start over from the address (a new box), and the new box keeps the focus:
      // the keyboard user goes on typing where they were.
      await expect(page.locator('[data-before-search]')).toHaveCount(0);
      await expect(box).toBeFocused();
      await clear(page);
      await page.keyboard.type('dicke');
      await expect(
        page.getByRole('option', { name: /^Charles Dickens\s*, Search by author/ }),
      ).toBeVisible();
      await arrowTo(box, /^Charles Dickens, Search by author/);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/author=Charles\+Dickens/);
      await expect(page).not.toHaveURL(/q=/);
      await expect(page.getByLabel('Author')).toHaveValue('Charles Dickens');
      await expect(page.getByRole('button', { name: /A Christmas Carol/ }).first()).toBeVisible();

      // Tab leaves the box and closes the list.
      await tabTo(page, box);
      await clear(page);
      await page.keyboard.type('christmas');
      await expect(box).toHaveAttribute('aria-expanded', 'true');
      await page.keyboard.press('Tab');
      await expect(box).not.toBeFocused();
      await expect(box).toHaveAttribute('aria-expanded', 'false');
    });
  });
}
