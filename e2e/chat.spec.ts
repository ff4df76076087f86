import type { Browser, Page } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, test, expectNoSidewaysScroll } from './fixtures.ts';

/** A new student, signed in in a browser context of their own, with a chat username chosen. */
async function chatter(browser: Browser, baseURL: string, firstName: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await registerViaApi(page.request, baseURL, newPerson({ firstName }));
  await page.goto('/userprofile/discussion-forum');
  await expect(page.getByRole('heading', { name: 'Choose a username' })).toBeVisible();
  await expect(page.getByLabel('Username', { exact: true })).toHaveValue(firstName);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Available Chat Rooms' })).toBeVisible();
  return page;
}

test.describe('the discussion forum', () => {
  test('two people chat in a room; abuse is held back; closing the room sends the other home', async ({
    browser,
    baseURL,
  }) => {
    const room = `Optics ${Date.now()}`;
    const ada = await chatter(browser, baseURL!, 'Ada');
    await expectNoAxeViolations(ada);

    await ada.getByRole('button', { name: 'Create New Room' }).click();
    await ada.getByRole('button', { name: 'Create Room' }).click();
    await expect(ada.getByText('Please enter both a username and room name')).toBeVisible();
    await ada.getByLabel('Room name').fill(room);
    await ada.getByLabel('Description').fill('Lenses and the week 3 problems');
    await ada.getByRole('button', { name: 'Create Room' }).click();
    const listed = ada.getByRole('listitem').filter({ hasText: room });
    await expect(listed).toContainText('Lenses and the week 3 problems');
    await listed.getByRole('button', { name: `Join ${room}` }).click();
    await expect(ada.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
    await expect(ada.getByText('Creator', { exact: true })).toBeVisible();
    await expect(ada.getByText('No messages yet. Start the conversation!')).toBeVisible();

    const alan = await chatter(browser, baseURL!, 'Alan');
    await alan.getByLabel('Search rooms').fill(room.toUpperCase());
    const seen = alan.getByRole('listitem').filter({ hasText: room });
    await expect(seen).toContainText('1 member');
    await expect(seen.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await seen.getByRole('button', { name: `Join ${room}` }).click();
    await expect(alan.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
    await expect(alan.getByRole('button', { name: 'Close Room' })).toHaveCount(0);

    await ada
      .getByLabel('Message', { exact: true })
      .fill('Shall we start with <b>Snell</b>’s law?');
    await ada.keyboard.press('Enter');
    const atAlan = alan.getByRole('region', { name: 'Messages' });
    await expect(atAlan).toContainText('Ada');
    await expect(atAlan).toContainText('Shall we start with <b>Snell</b>’s law?');
    await expect(ada.getByRole('region', { name: 'Messages' })).toContainText('You');

    await alan.getByLabel('Message', { exact: true }).fill('Yes, page 42.');
    await alan.getByRole('button', { name: 'Send' }).click();
    await expect(ada.getByRole('region', { name: 'Messages' })).toContainText('Yes, page 42.');
    await expectNoAxeViolations(alan);

    // Abuse never leaves the browser: this room is restricted for the sender, Ada sees nothing.
    await alan.getByLabel('Message', { exact: true }).fill('what the f*ck');
    await alan.keyboard.press('Enter');
    const warning = alan.getByRole('dialog', { name: 'Inappropriate language' });
    await expect(warning).toContainText(
      'Abusive or inappropriate language has been detected in this conversation...',
    );
    await expect(warning).toContainText('Continued violation may result in account restrictions.');
    await warning.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(
      alan.getByText('This chat has been restricted due to inappropriate content.'),
    ).toBeVisible();
    await expect(alan.getByLabel('Message', { exact: true })).toBeDisabled();
    await expect(alan.getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect(ada.getByRole('region', { name: 'Messages' })).not.toContainText('what the');
    await expectNoAxeViolations(alan);

    await ada.getByRole('button', { name: 'Close Room' }).click();
    await ada
      .getByRole('dialog', { name: 'Close Room' })
      .getByRole('button', { name: 'Close Room' })
      .click();
    const closed = alan.getByRole('alertdialog', { name: 'Room closed' });
    await expect(closed).toContainText(`Room ${room} has been closed by the creator.`);
    await closed.getByRole('button', { name: 'OK' }).click();
    await expect(alan).toHaveURL(/\/userprofile$/);
  });

  test('a room survives a reload, with its history, and the creator can delete it from the forum', async ({
    browser,
    baseURL,
  }) => {
    const room = `History ${Date.now()}`;
    const grace = await chatter(browser, baseURL!, 'Grace');
    await grace.getByRole('button', { name: 'Create New Room' }).click();
    await grace.getByLabel('Room name').fill(room);
    await grace.getByRole('button', { name: 'Create Room' }).click();
    await grace
      .getByRole('listitem')
      .filter({ hasText: room })
      .getByRole('button', { name: `Join ${room}` })
      .click();
    await grace.getByLabel('Message', { exact: true }).fill('Notes for Monday');
    await grace.keyboard.press('Enter');
    await expect(grace.getByRole('region', { name: 'Messages' })).toContainText('Notes for Monday');
    await grace.reload();
    await expect(grace.getByRole('region', { name: 'Messages' })).toContainText('Notes for Monday');

    await grace.getByRole('button', { name: 'Leave Room' }).click();
    await expect(grace).toHaveURL(/discussion-forum$/);
    const listed = grace.getByRole('listitem').filter({ hasText: room });
    await listed.getByRole('button', { name: `Delete ${room}` }).click();
    const dialog = grace.getByRole('dialog', { name: 'Delete Room' });
    await expect(dialog).toContainText('cannot be undone');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(grace.getByRole('listitem').filter({ hasText: room })).toHaveCount(0);
  });

  for (const width of [390, 1280]) {
    test(`the forum fits a ${width} px screen and axe finds nothing`, async ({ page, baseURL }) => {
      await page.setViewportSize({ width, height: 844 });
      await registerViaApi(page.request, baseURL!, newPerson());
      await page.goto('/userprofile/discussion-forum');
      await expect(page.getByRole('heading', { name: 'Choose a username' })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  }
});
