import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** Where the screenshots of the shelf go, to be looked at by a person. */
const SHOTS = '/tmp/shelf-shots';

/**
 * Searches the catalogue for `words`, opens the first result titled like `title`, saves it and
 * returns its exact title (which edition ranks first depends on what other specs borrowed).
 */
async function saveFromSearch(page: Page, words: string, title: RegExp): Promise<string> {
  await page.goto(`/userprofile/openlibrary?q=${encodeURIComponent(words)}`);
  await page.getByRole('button', { name: title }).first().click();
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  const save = page.getByRole('button', { name: /^Save to my shelf/ });
  await save.click();
  await expect(page.getByRole('button', { name: /^Saved/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  return (await page.getByRole('heading', { level: 2, name: title }).textContent()) ?? '';
}

/** Presses Tab until the focus is on `target` (at most `limit` times): it is reachable by keys. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let step = 0; step < limit; step += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error('The keyboard never reached the control');
}

const order = (list: Locator) => list.getByRole('listitem').getByRole('link');

test.describe('my shelf', () => {
  test('a student saves books, makes an ordered list, shares it; a classmate reads it', async ({
    page,
    browser,
    baseURL,
  }) => {
    await mkdir(SHOTS, { recursive: true });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width: 1280, height: 900 });
    await registerViaApi(page.request, baseURL!, newPerson({ firstName: 'Mary' }));

    const timeMachine = await saveFromSearch(page, 'time machine', /The Time Machine/);
    const frankenstein = await saveFromSearch(page, 'frankenstein', /^Frankenstein/);

    // My shelf, from the top bar: the saved books, newest first.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Shelf', exact: true })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My shelf');
    const saved = page.getByRole('list', { name: 'Saved items, newest first' });
    await expect(saved.getByRole('link')).toHaveText([/^Frankenstein/, /The Time Machine/]);

    await page.getByLabel('New list name').fill('Seminar week 1');
    await page.getByRole('button', { name: 'Create list' }).click();
    await expect(page.getByRole('heading', { level: 3, name: 'Seminar week 1' })).toBeVisible();
    for (const title of [timeMachine, frankenstein]) {
      await page.getByLabel('Add a saved item').selectOption({ label: title });
      await page.getByRole('button', { name: 'Add to list', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Added' })).toBeVisible();
    }
    const list = page.getByRole('list', { name: 'Seminar week 1, in order' });
    await expect(order(list)).toHaveText([/The Time Machine/, /^Frankenstein/]);

    // Reordered with the keyboard alone: Tab reaches Move up, Enter moves, the focus follows.
    await page.getByLabel('Add a saved item').focus();
    const moveUp = list.getByRole('button', { name: /^Move up: Frankenstein/ });
    await tabTo(page, moveUp);
    await page.keyboard.press('Enter');
    await expect(order(list)).toHaveText([/^Frankenstein/, /The Time Machine/]);
    await expect(list.getByRole('button', { name: /^Move down: Frankenstein/ })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Moved' })).toContainText('now 1 of 2');

    await page.getByRole('button', { name: 'Share by link' }).click();
    const link = page.getByLabel(/Link to share/);
    await expect(link).toHaveValue(/\/lists\/shared\/[A-Za-z0-9_-]{22,}$/);
    const url = await link.inputValue();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Link copied.' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/shelf-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(list).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/shelf-390.png`, fullPage: true });

    // The delete question, seen and declined.
    await page.getByRole('button', { name: 'Delete list' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete “Seminar week 1”?' });
    await expect(ask.getByRole('button', { name: 'Keep it' })).toBeFocused();
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();

    // A classmate, in another browser, opens the link: the list read-only, in its order.
    const other = await browser.newContext({ baseURL: baseURL! });
    const classmate = await other.newPage();
    await classmate.setViewportSize({ width: 1280, height: 900 });
    await registerViaApi(classmate.request, baseURL!, newPerson({ firstName: 'Percy' }));
    await classmate.goto(new URL(url).pathname);
    // A fresh browser loads the app and the screen's code first: more time on a busy machine.
    await expect(classmate.getByRole('heading', { level: 1 })).toHaveText('Seminar week 1', {
      timeout: 20_000,
    });
    await expect(classmate.getByText('Shared by Mary Hopper.', { exact: false })).toBeVisible();
    const shared = classmate.getByRole('list', { name: 'Seminar week 1, in order' });
    await expect(order(shared)).toHaveText([/^Frankenstein/, /The Time Machine/]);
    await expect(classmate.getByRole('button', { name: /^Move/ })).toHaveCount(0);
    await expect(classmate.getByRole('button', { name: /Delete|Share|Rename/ })).toHaveCount(0);
    await expectNoAxeViolations(classmate);
    await classmate.screenshot({ path: `${SHOTS}/shared-1280.png`, fullPage: true });
    await shared.getByRole('button', { name: /^Save to my shelf: Frankenstein/ }).click();
    await expect(shared.getByRole('button', { name: /^Saved: Frankenstein/ })).toBeVisible();
    await classmate.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(classmate);
    await expectNoAxeViolations(classmate);
    await classmate.screenshot({ path: `${SHOTS}/shared-390.png`, fullPage: true });

    // Sharing off: the classmate's link is dead.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Stop sharing' }).click();
    await expect(page.getByText('Private: only you can see this list.')).toBeVisible();
    await classmate.reload();
    await expect(classmate.getByRole('heading', { level: 1 })).toHaveText(
      'This list is not shared',
    );
    await other.close();
  });

  test('saves a course material from its card in the library search', async ({ page, baseURL }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto('/userprofile/openlibrary?tab=courses');
    const first = page.getByRole('tabpanel').getByRole('listitem').first();
    const save = first.getByRole('button', { name: /^Save to my shelf/ });
    await save.click();
    // The card's own click (open the reader) is not set off by the shelf's buttons.
    await expect(page).toHaveURL(/\/userprofile\/openlibrary/);
    await expect(first.getByRole('button', { name: /^Saved/ })).toBeVisible();
    await first.getByRole('button', { name: /^Add to list/ }).click();
    const dialog = page.getByRole('dialog');
    // As a person would: the dialog has said what lists there are (none) before a new one is made.
    // Until then it has a second status, "Loading your lists…", beside the one that answers.
    await expect(dialog.getByText('You have no reading lists yet. Make one below.')).toBeVisible();
    await dialog.getByLabel('New list').fill('Course notes');
    await dialog.getByRole('button', { name: 'Create and add' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Added to “Course notes”.');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(/\/userprofile\/openlibrary/);
  });
});
