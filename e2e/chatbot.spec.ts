import type { Page } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, test, expectNoSidewaysScroll } from './fixtures.ts';

/** Opens the widget on the current page and returns its window. */
async function openChatbot(page: Page) {
  const toggle = page.getByRole('complementary', { name: 'Digi Chatbot' }).getByRole('button', {
    name: 'Digi Chatbot',
    exact: true,
  });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const window = page.getByRole('dialog', { name: 'Digi Chatbot' });
  await expect(window.getByLabel('Your question')).toBeFocused();
  return { window, toggle };
}

async function ask(page: Page, question: string) {
  const window = page.getByRole('dialog', { name: 'Digi Chatbot' });
  await window.getByLabel('Your question').fill(question);
  await window.getByLabel('Your question').press('Enter');
  return window;
}

test.describe('the Digi Chatbot', () => {
  test('floats on every screen, keeps the conversation across screens, clears and closes', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/');
    const { window, toggle } = await openChatbot(page);
    await expect(window).toContainText('Welcome to Digi Chatbot! Ask me anything to get started.');
    await expectNoAxeViolations(page);
    await ask(page, 'When is the library open?');
    const conversation = window.getByRole('region', { name: 'Conversation' });
    await expect(conversation).toContainText('Saturday: 9:00 AM-6:00 PM');

    // A blank question is not sent; Shift+Enter makes a new line instead of sending.
    await window.getByLabel('Your question').fill('   ');
    await window.getByLabel('Your question').press('Enter');
    await expect(conversation.getByRole('listitem')).toHaveCount(2);

    await page.goto('/guest?searchQuery=time');
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto('/userprofile/openlibrary');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const again = await openChatbot(page);
    await expect(again.window.getByRole('region', { name: 'Conversation' })).toContainText(
      'Saturday: 9:00 AM-6:00 PM',
    );
    await expectNoAxeViolations(page);

    await again.window.getByRole('button', { name: 'Clear' }).click();
    await expect(again.window).toContainText('Welcome to Digi Chatbot!');
    await page.keyboard.press('Escape');
    await expect(again.window).toBeHidden();
    await expect(again.toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await page.goto('/offline-book-service');
    const third = await openChatbot(page);
    await ask(page, 'How do I reserve a book?');
    await expect(third.window).toContainText('9:00-9:30 AM');
    await third.window.getByRole('button', { name: 'Close' }).click();
    await expect(third.window).toBeHidden();
  });

  test('at 390 px the open window fits the screen and axe finds nothing', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const { window: chat } = await openChatbot(page);
    await ask(page, 'Do you have books on time travel?');
    await expect(chat).toContainText('The Time Machine');
    const box = await chat.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  });

  test('a catalogue answer links to the item, which opens in the library', async ({
    page,
    baseURL,
  }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto('/userprofile');
    await openChatbot(page);
    const window = await ask(page, 'Who wrote Frankenstein?');
    await expect(window).toContainText('Mary Wollstonecraft Shelley');
    await window.getByRole('link', { name: /^Frankenstein/ }).click();
    await expect(page).toHaveURL(/\/userprofile\/openlibrary\?item=/);
    await expect(page.getByRole('heading', { name: /Frankenstein/ }).first()).toBeVisible();
  });

  test('says so plainly when the server cannot be reached, and shows replies as text', async ({
    page,
    pageErrors,
  }) => {
    await page.goto('/');
    await openChatbot(page);
    const chat = await ask(page, '<img src=x onerror="window.pwned=1"> hello');
    await expect(chat.getByRole('region', { name: 'Conversation' })).toContainText(
      '<img src=x onerror="window.pwned=1"> hello',
    );
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    // The next question waits for this answer (one at a time), as a person would.
    await expect(chat.getByText('Digi Chatbot is typing…')).toHaveCount(0);
    await page.route('**/api/chat', (route) => route.abort('connectionrefused'));
    await ask(page, 'Are you there?');
    await expect(chat).toContainText('Error: Could not reach the server.');
    // The one console error this test causes on purpose: the refused connection itself.
    const refused = pageErrors.findIndex((error) => error.includes('net::ERR_CONNECTION_REFUSED'));
    expect(refused).toBeGreaterThanOrEqual(0);
    pageErrors.splice(refused, 1);
  });
});
