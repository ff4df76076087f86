import type { Page, TestInfo } from '@playwright/test';
import { E2E_LIBRARIAN, newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** Signs the desk's librarian in through the sign-in screen. */
async function signInAsLibrarian(page: Page): Promise<void> {
  // Librarians are made by user:create, never by sign-up (e2e/data-template.ts).
  await page.goto('/signin');
  await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(page).toHaveURL(/\/facultyprofile$/);
}

/** Checks the page as it is now and keeps a full-page picture of it at the window's width. */
async function look(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await expect(page.getByText('Loading…')).toHaveCount(0);
  // From the top, so the sticky top bar is pictured where it belongs.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
}

test.describe('the librarians’ catalogue', () => {
  test('a librarian finds a book, edits it, scans in a copy, withdraws and restores it, and adds an item', async ({
    page,
    baseURL,
  }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAsLibrarian(page);

    // A book of this test's own: specs running beside it read the demo books, which must not
    // change under them.
    const stamp = `${Date.now()}`.slice(-7);
    const title = `The Quillwort Almanac ${stamp}`;
    const made = await page.request.post('/api/items', {
      headers: { origin: baseURL! },
      data: { type: 'book', title, authors: ['Ada Lovelace'], year: 1843, subjects: ['botany'] },
    });
    expect(made.status(), await made.text()).toBe(201);

    // From the desk to the catalogue, then a search by the title's words.
    await page.goto('/desk');
    await page.getByRole('link', { name: 'Catalogue: items and copies' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue');
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Catalogue' }),
    ).toHaveAttribute('aria-current', 'page');
    await page.getByLabel('Search the catalogue').fill(`quillwort almanac ${stamp}`);
    await page.getByLabel('Search the catalogue').press('Enter');
    const result = page.getByRole('link', { name: title, exact: true });
    await expect(result).toBeVisible();
    await expect(page.getByRole('listitem').filter({ has: result })).toContainText(
      'Ada Lovelace · 1843 · Book',
    );
    await look(page, testInfo, 'catalogue-search');

    // Open it and change its year.
    await result.click();
    await expect(page).toHaveURL(/\/desk\/catalogue\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await page.getByLabel('Year').fill('1844');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Saved. Changed: Year.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

    // A scanner types the barcode and presses Enter; the box is ready for the next one.
    const barcode = `QW-${stamp}`;
    const barcodeBox = page.getByRole('textbox', { name: 'Barcode' });
    await page.getByLabel('Location').fill('Annex, shelf Q1');
    await barcodeBox.click();
    await page.keyboard.type(barcode);
    await page.keyboard.press('Enter');
    await expect(
      page.getByText(`Added copy ${barcode} at Annex, shelf Q1. Scan or type the next barcode.`),
    ).toBeVisible();
    await expect(barcodeBox).toHaveValue('');
    await expect(barcodeBox).toBeFocused();
    const copies = page.getByRole('region', { name: /^1 copy with barcode/ });
    await expect(copies.getByRole('rowheader', { name: barcode })).toBeVisible();
    await expect(page.getByText('1 copy in the library, 1 free to reserve now.')).toBeVisible();

    // The same label scanned again is refused, and stays selected for the next scan.
    await page.keyboard.type(barcode.toLowerCase());
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toContainText(
      `Barcode ${barcode.toLowerCase()} is already on another copy.`,
    );
    await expect(barcodeBox).toBeFocused();

    // The row is edited with the keyboard alone: Edit, the boxes, Enter to save.
    await page.getByRole('button', { name: `Edit copy ${barcode}` }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel(`Location of copy ${barcode}`)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(`Status of copy ${barcode}`)).toBeFocused();
    await page.getByLabel(`Status of copy ${barcode}`).selectOption('in_repair');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Spine loose');
    await page.keyboard.press('Enter');
    await expect(page.getByText(`Copy ${barcode} saved: status and note changed.`)).toBeVisible();
    await expect(page.getByRole('button', { name: `Edit copy ${barcode}` })).toBeFocused();
    await expect(copies.getByRole('row').filter({ hasText: barcode })).toContainText('In repair');

    // The history says who changed what, newest first.
    const history = page.getByRole('region', { name: 'History' });
    const entries = history.getByRole('listitem').filter({ hasText: E2E_LIBRARIAN.lastName });
    await expect(entries.first()).toContainText(`Changed copy ${barcode}`);
    await expect(entries.first()).toContainText('Status changed from “Available” to “In repair”');
    await expect(history).toContainText(`Added copy ${barcode}`);
    await expect(history).toContainText('Year changed from “1843” to “1844”');
    await expect(history).toContainText(`${E2E_LIBRARIAN.firstName} ${E2E_LIBRARIAN.lastName}`);
    await look(page, testInfo, 'catalogue-item');

    // Withdraw, after a confirmation whose safe answer has the focus.
    await page.getByRole('button', { name: 'Withdraw this item' }).click();
    const confirm = page.getByRole('dialog', { name: `Withdraw “${title}”?` });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoAxeViolations(page);
    await confirm.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expect(
      page.getByText(`“${title}” is withdrawn: only librarians can find it now.`),
    ).toBeVisible();
    await expect(
      page.getByText('Students and faculty cannot find or reserve this item.'),
    ).toBeVisible();
    await expect(history.getByRole('listitem').first()).toContainText('Withdrew the item');

    // Back to the search: the withdrawn book is gone until withdrawn items are asked for.
    await page.goBack();
    await expect(page).toHaveURL(/\/desk\/catalogue\?q=quillwort/);
    // Other items may hold some of the words (issue 23, "most words"): this one is not listed.
    await expect(page.getByRole('status').filter({ hasText: /match/ })).toBeVisible();
    await expect(result).toHaveCount(0);
    await page.getByLabel('Show withdrawn items').check();
    const withdrawn = page.getByRole('listitem').filter({ has: result });
    await expect(withdrawn).toContainText('Withdrawn');
    await result.click();
    await page.getByRole('button', { name: 'Restore this item' }).click();
    await page
      .getByRole('dialog', { name: `Restore “${title}”?` })
      .getByRole('button', { name: 'Restore', exact: true })
      .click();
    await expect(
      page.getByText(`“${title}” is restored: everyone can find it again.`),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Withdraw this item' })).toBeVisible();

    // At a phone's width the item screen still reads top to bottom.
    await page.setViewportSize({ width: 390, height: 844 });
    await look(page, testInfo, 'catalogue-item');
    await page.goBack();
    await expect(withdrawn).not.toContainText('Withdrawn');
    await look(page, testInfo, 'catalogue-search');

    // A new item: an empty form that says what is missing, then the new item's own screen.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'Add an item' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Add an item');
    await page.getByRole('button', { name: 'Add to the catalogue' }).click();
    await expect(page.getByText('Title is required', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Title')).toBeFocused();
    const course = `Field Notes on Mosses ${stamp}`;
    await page.getByLabel('Type').selectOption('course');
    await page.getByLabel('Title').fill(course);
    await page.getByLabel('Authors').fill('Ada Lovelace, Charles Babbage');
    await page.getByLabel('Institution').fill('Campus University');
    await page.getByLabel('Drive link').fill('https://drive.google.com/file/d/1AbCdEf/view');
    await look(page, testInfo, 'catalogue-new');
    await page.getByRole('button', { name: 'Add to the catalogue' }).click();
    await expect(page).toHaveURL(/\/desk\/catalogue\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(course);
    await expect(
      page.getByText(`Added “${course}” to the catalogue. You can add its copies below.`),
    ).toBeVisible();
    await expect(page.getByLabel('Institution')).toHaveValue('Campus University');
    await expect(history).toContainText('Added the item to the catalogue');
    await expect(history).toContainText('Authors set to “Ada Lovelace, Charles Babbage”');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Back to the catalogue' }).click();
    await expect(page).toHaveURL(/\/desk\/catalogue\?q=quillwort/);
    await expect(page.getByRole('link', { name: course })).toHaveCount(0);
    await page.goto('/desk/catalogue');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue');
    await look(page, testInfo, 'catalogue-start');
  });

  test('a student opening the catalogue is told it is not for their account', async ({
    page,
    baseURL,
  }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    for (const path of ['/desk/catalogue', '/desk/catalogue/new']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'This page is not available to your account',
      );
    }
    await page.getByRole('link', { name: 'Go to your home' }).click();
    await expect(page).toHaveURL(/\/userprofile$/);
  });
});
