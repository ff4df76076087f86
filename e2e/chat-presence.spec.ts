import { mkdirSync } from 'node:fs';
import {
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  test,
  twoInARoom,
} from './fixtures.ts';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = '/tmp/presence-shots';

/**
 * Issue 26's typing indicator and presence (decision 044), in two browsers: B sees "A is
 * typing…" while A types, and A in the room's "here" list, opened from the keyboard; the screens
 * pass axe at 1280 and 390 px.
 */
test('one member sees the other typing, and who is here', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const { first: a, second: b } = await twoInARoom(browser, baseURL!, 'Presence', ['Ada', 'Bo']);

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
