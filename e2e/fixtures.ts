import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Browser, type Page } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';

/**
 * The test object every spec uses. Each page fails its test on an uncaught script error or a
 * console error or warning (a CSP violation shows up as one), so no spec has to remember to check.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page, baseURL }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        // Chromium logs every 4xx answer (a refused sign-in, an unknown page) that the app
        // handles itself; any other error or warning (a 5xx, a CSP violation, a React or router
        // warning) is a fault.
        const kind = message.type();
        // Other sites' pages (the test identity provider) are not ours to judge.
        const source = message.location().url;
        if (source && baseURL && !source.startsWith(baseURL)) return;
        const handled =
          /^Failed to load resource: the server responded with a status of 4\d\d/.test(
            message.text(),
          );
        if ((kind === 'error' || kind === 'warning') && !handled)
          errors.push(`${kind}: ${message.text()}`);
      });
      await use(errors);
      expect(errors, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Fails when the page is wider than the window: nothing may make a person scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * Runs axe-core on the page and fails with the list of violations. It first waits for the
 * screen's level-1 heading (every screen has one): a lazily loaded screen still fetching its code
 * has none yet, and axe would be judging the loading state rather than the screen.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor({ state: 'attached' });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}

/** A person in the chat: their page (a browser context of their own) and forum username. */
export interface Chatter {
  page: Page;
  username: string;
}

/**
 * A new student in a browser context of their own, signed up and verified, with a forum username
 * chosen: `firstName` and a unique stamp, as one word with `oneWord` (an `@mention` is one word).
 */
export async function chatter(
  browser: Browser,
  baseURL: string,
  firstName: string,
  { oneWord = false }: { oneWord?: boolean } = {},
): Promise<Chatter> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await registerViaApi(page.request, baseURL, newPerson({ firstName }));
  await page.goto('/userprofile/discussion-forum');
  // The forum asks for a username first, offering the person's first name.
  await expect(page.getByRole('heading', { name: 'Choose a username' })).toBeVisible();
  await expect(page.getByLabel('Username', { exact: true })).toHaveValue(firstName);
  // Digits only: letters drawn at random can spell a word the moderation matcher refuses once
  // the name is typed into a message (an `@mention`).
  const stamp = `${String(Date.now()).slice(-9)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  const username = `${firstName}${oneWord ? '' : ' '}${stamp}`;
  await chooseUsername(page, username);
  return { page, username };
}

/** Chooses `username` on the forum's first screen and waits until it is saved. */
export async function chooseUsername(page: Page, username: string): Promise<void> {
  const field = page.getByLabel('Username', { exact: true });
  await field.fill(username);
  // Enter, as many type it: a click lands where the button was a moment before, and a slow first
  // connection's notice above the form may just have moved it (`ConnectionNotice`).
  await field.press('Enter');
  // Saved once the page says so: the room list's heading shows before, and a room created then
  // is refused ("Please enter both a username and room name").
  await expect(page.getByText('You chat as')).toContainText(username);
}

/** Opens `room` on `page` and waits for its heading: the socket has joined it. */
export async function openRoom(page: Page, room: string): Promise<void> {
  await page.goto(`/room/${encodeURIComponent(room)}`);
  await expect(page.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
}

/** Creates `room` from the forum's room list `page` is on, and opens it with its Join button. */
export async function openNewRoom(page: Page, room: string): Promise<void> {
  await page.getByRole('button', { name: 'Create New Room' }).click();
  await page.getByLabel('Room name').fill(room);
  await page.getByRole('button', { name: 'Create Room' }).click();
  // Listed once the server has made it: opening it before would find no such room.
  await page
    .getByRole('listitem')
    .filter({ hasText: room })
    .getByRole('button', { name: `Join ${room}` })
    .click();
  await expect(page.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
}

/**
 * Two new students in a new room, each in a browser of their own: the first creates it, then the
 * second joins. The room's name is `prefix` and a stamp, so runs never meet.
 */
export async function twoInARoom(
  browser: Browser,
  baseURL: string,
  prefix: string,
  [firstName, secondName]: [string, string],
): Promise<{ room: string; first: Chatter; second: Chatter }> {
  const room = `${prefix} ${Date.now().toString(36)}`;
  const first = await chatter(browser, baseURL, firstName);
  await openNewRoom(first.page, room);
  const second = await chatter(browser, baseURL, secondName);
  await openRoom(second.page, room);
  return { room, first, second };
}
