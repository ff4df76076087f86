import { mkdirSync } from 'node:fs';
import {
  chatter,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  openNewRoom,
  openRoom,
  test,
} from './fixtures.ts';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = '/tmp/mentions-shots';

/**
 * Issue 26's attention, as new users would try it in two browsers: Bo has been in a room and left;
 * Ada mentions Bo through the composer's `@` list; Bo's room list shows the unread count and the
 * mention, the bell gets a notice whose link opens the room at "New messages", just above it.
 */
test('a mention away from the room rings the bell and opens the room at "New messages"', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const room = `Mentions ${Date.now().toString(36)}`;
  const { page: ada } = await chatter(browser, baseURL!, 'Ada', { oneWord: true });
  await openNewRoom(ada, room);
  const composer = ada.getByRole('textbox', { name: 'Message' });
  await composer.fill('Welcome to the study room');
  await composer.press('Enter');

  // Bo comes, reads, and goes back to the room list.
  const { page: bo, username: boName } = await chatter(browser, baseURL!, 'Bo', { oneWord: true });
  await openRoom(bo, room);
  await expect(bo.getByText('Welcome to the study room')).toBeVisible();
  await bo.getByRole('button', { name: 'Leave Room' }).click();
  await expect(bo.getByRole('heading', { name: 'Available Chat Rooms' })).toBeVisible();

  // Ada writes on, then mentions Bo by the keyboard: @, the first letters, ↓ ↑, Enter picks.
  await composer.fill('Chapter 3 is for Thursday');
  await composer.press('Enter');
  await expect(ada.getByText('Chapter 3 is for Thursday')).toBeVisible();
  await composer.pressSequentially('Can you bring the notes @Bo');
  const list = ada.getByRole('listbox', { name: 'People to mention' });
  await expect(list.getByRole('option', { name: `@${boName}` })).toBeVisible();
  await expect(composer).toHaveAttribute('aria-activedescendant', /.+/);
  await expectNoAxeViolations(ada);
  await ada.screenshot({ path: `${SHOTS}/autocomplete-1280.png` });
  await composer.press('ArrowDown');
  await composer.press('ArrowUp');
  await composer.press('Enter');
  await expect(composer).toHaveValue(`Can you bring the notes @${boName} `);
  await composer.pressSequentially('please?');
  await composer.press('Enter');
  await expect(ada.getByText('please?')).toBeVisible();

  // Bo's room list: two unread and the mention, in words; the bell has the notice.
  const row = bo.getByRole('listitem').filter({ has: bo.getByRole('heading', { name: room }) });
  await expect(row.getByText('2 unread')).toBeVisible();
  await expect(row.getByText('@ Mentioned')).toBeVisible();
  await expect(bo.getByRole('link', { name: 'Notices, 1 unread' })).toBeVisible();
  await expectNoAxeViolations(bo);
  await bo.setViewportSize({ width: 1280, height: 900 });
  await bo.screenshot({ path: `${SHOTS}/forum-1280.png`, fullPage: true });
  await bo.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(bo);
  await expectNoAxeViolations(bo);
  await bo.screenshot({ path: `${SHOTS}/forum-390.png`, fullPage: true });
  await bo.setViewportSize({ width: 1280, height: 900 });

  // The bell, then the notice's link: the room opens at "New messages", the mention below it.
  await bo.getByRole('link', { name: 'Notices, 1 unread' }).click();
  const notice = bo.getByRole('link', { name: new RegExp(`mentioned you in ${room}`) });
  await expect(notice).toBeVisible();
  await notice.click();
  await expect(bo).toHaveURL(/\/room\/.+\?message=\d+$/);
  const messages = bo.getByRole('region', { name: 'Messages' });
  const divider = messages.getByRole('listitem').filter({ hasText: /^New messages$/ });
  await expect(divider).toBeInViewport();
  const mention = messages.locator('[data-mentions-me]');
  await expect(mention).toContainText('(mentions you)');
  await expect(mention).toBeInViewport();
  await expect(bo.getByText('2 new messages since you last read this room.')).toBeAttached();
  // The line sits just above the first message Bo had not read.
  const items = await messages.getByRole('listitem').allTextContents();
  const at = items.indexOf('New messages');
  expect(items[at + 1]).toContain('Chapter 3 is for Thursday');
  await expectNoAxeViolations(bo);
  await bo.screenshot({ path: `${SHOTS}/room-1280.png`, fullPage: true });
  await bo.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(bo);
  await expectNoAxeViolations(bo);
  await bo.screenshot({ path: `${SHOTS}/room-390.png`, fullPage: true });

  // Read: back in the list, nothing unread.
  await bo.getByRole('button', { name: 'Leave Room' }).click();
  await expect(row.getByText(/unread/)).toHaveCount(0);
  await expect(row.getByText('@ Mentioned')).toHaveCount(0);
});

/**
 * The room list follows a new message within seconds (decision 042, `rooms_active`): Bo visited a
 * room and is back on the list; Ada writes there (no mention, so no bell); Bo's count rises without
 * a reload, long before the half-minute refresh.
 */
test('the room list’s unread count follows a new message within seconds', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const room = `Live ${Date.now().toString(36)}`;
  const { page: ada } = await chatter(browser, baseURL!, 'Ada');
  await openNewRoom(ada, room);
  const composer = ada.getByRole('textbox', { name: 'Message' });
  await composer.fill('Reading group at six');
  await composer.press('Enter');

  const { page: bo } = await chatter(browser, baseURL!, 'Bo');
  await openRoom(bo, room);
  await expect(bo.getByText('Reading group at six')).toBeVisible();
  await bo.getByRole('button', { name: 'Leave Room' }).click();
  await expect(bo.getByRole('heading', { name: 'Available Chat Rooms' })).toBeVisible();
  const row = bo.getByRole('listitem').filter({ has: bo.getByRole('heading', { name: room }) });
  await expect(row).toBeVisible();
  await expect(row.getByText(/unread/)).toHaveCount(0);
  // Let the list's own asks (on showing it, on the room-list push of Bo leaving) settle first.
  await bo.waitForTimeout(1_000);

  await composer.fill('Bring chapter four');
  await composer.press('Enter');
  await expect(ada.getByText('Bring chapter four')).toBeVisible();
  await expect(row.getByText('1 unread')).toBeVisible({ timeout: 5_000 });
  await expect(row.getByText('@ Mentioned')).toHaveCount(0);

  await expectNoAxeViolations(bo);
  await bo.setViewportSize({ width: 1280, height: 900 });
  await bo.screenshot({ path: `${SHOTS}/live-unread-1280.png`, fullPage: true });
  await bo.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(bo);
  await expectNoAxeViolations(bo);
  await bo.screenshot({ path: `${SHOTS}/live-unread-390.png`, fullPage: true });
});

/**
 * A message edited to mention someone (decision 042's "Edits"): the person, in the room, sees it
 * marked for them at once, as a message that mentioned them from the start would be.
 */
test('a message edited to mention someone is highlighted for them', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const room = `Edited ${Date.now().toString(36)}`;
  const { page: ada } = await chatter(browser, baseURL!, 'Ada');
  await openNewRoom(ada, room);
  const { page: bo, username: boName } = await chatter(browser, baseURL!, 'Bo', { oneWord: true });
  await openRoom(bo, room);

  const composer = ada.getByRole('textbox', { name: 'Message' });
  await composer.fill('Who has the slides?');
  await composer.press('Enter');
  const boMessages = bo.getByRole('region', { name: 'Messages' });
  const seen = boMessages.getByRole('listitem').filter({ hasText: 'Who has the slides?' });
  await expect(seen).toBeVisible();
  await expect(boMessages.locator('[data-mentions-me]')).toHaveCount(0);

  // Ada edits it to ask Bo by name.
  const own = ada.getByRole('listitem').filter({ hasText: 'Who has the slides?' });
  await own.getByRole('button', { name: 'Edit your message' }).click();
  const editor = ada.getByRole('dialog', { name: 'Edit your message' });
  await editor
    .getByRole('textbox', { name: 'Your message' })
    .fill(`Who has the slides? @${boName} maybe?`);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toHaveCount(0);

  const mention = boMessages.locator('[data-mentions-me]');
  await expect(mention).toHaveCount(1);
  await expect(mention).toContainText('Who has the slides?');
  await expect(mention).toContainText(`@${boName} (mentions you) maybe?`);
  await expectNoAxeViolations(bo);
});
