import { mkdirSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = '/tmp/presence-shots';

/** A new student in a browser context of their own, with a chat username chosen. */
async function chatter(
  browser: Browser,
  baseURL: string,
  firstName: string,
): Promise<{ page: Page; username: string }> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await registerViaApi(page.request, baseURL, newPerson({ firstName }));
  await page.goto('/userprofile/discussion-forum');
  const username = `${firstName} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Available Chat Rooms' })).toBeVisible();
  return { page, username };
}

/**
 * Issue 26's typing indicator and presence (decision 044), in two browsers: B sees "A is
 * typing…" while A types, and A in the room's "here" list, opened from the keyboard; the screens
 * pass axe at 1280 and 390 px.
 */
test('one member sees the other typing, and who is here', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const room = `Presence ${Date.now().toString(36)}`;
  const a = await chatter(browser, baseURL!, 'Ada');
  await a.page.getByRole('button', { name: 'Create New Room' }).click();
  await a.page.getByLabel('Room name').fill(room);
  await a.page.getByRole('button', { name: 'Create Room' }).click();
  await a.page.goto(`/room/${encodeURIComponent(room)}`);
  await expect(a.page.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();

  const b = await chatter(browser, baseURL!, 'Bo');
  await b.page.goto(`/room/${encodeURIComponent(room)}`);
  await expect(b.page.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();

  // Both are here, on both screens (presence is read at most every 2 s: slower on a busy machine).
  await expect(a.page.getByText('2 here')).toBeVisible({ timeout: 15_000 });
  await expect(b.page.getByText('2 here')).toBeVisible({ timeout: 15_000 });

  // A types; B sees it (A does not see their own name).
  await a.page.getByRole('textbox', { name: 'Message' }).pressSequentially('Has anyone read', {
    delay: 30,
  });
  await expect(b.page.getByText(`${a.username} is typing…`)).toBeVisible();
  await expect(a.page.getByText(/is typing…/)).toHaveCount(0);

  // B opens the here-list from the keyboard and finds A in it.
  const summary = b.page.getByText('2 here');
  await summary.focus();
  await b.page.keyboard.press('Enter');
  const list = b.page.getByRole('list').filter({ hasText: a.username });
  await expect(list.getByText(a.username)).toBeVisible();
  await expect(list.getByText(b.username)).toBeVisible();
  await expectNoAxeViolations(b.page);
  await b.page.setViewportSize({ width: 1280, height: 900 });
  await b.page.screenshot({ path: `${SHOTS}/room-1280.png`, fullPage: true });
  await b.page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(b.page);
  await expectNoAxeViolations(b.page);
  await b.page.screenshot({ path: `${SHOTS}/room-390.png`, fullPage: true });

  // Escape closes the list, and the focus is back on its button.
  await b.page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(b.page.locator('summary')).toBeFocused();

  // A sends: the indicator goes; B leaves: A's count drops.
  await a.page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(b.page.getByText(`${a.username} is typing…`)).toBeHidden();
  await b.page.getByRole('button', { name: 'Leave Room' }).click();
  await expect(a.page.getByText('1 here')).toBeVisible();
});
