import type { Locator, Page } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** The widget's toggle, reached and pressed by keyboard; the window it opens. */
async function openByKeyboard(page: Page): Promise<Locator> {
  const toggle = page.getByRole('complementary', { name: 'Digi Chatbot' }).getByRole('button', {
    name: 'Digi Chatbot',
    exact: true,
  });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const window = page.getByRole('dialog', { name: 'Digi Chatbot' });
  await expect(window.getByLabel('Your question')).toBeFocused();
  return window;
}

/**
 * Types a question into the focused box and sends it with Enter; waits for the reply, which the
 * window's status region announces (a screen reader hears the reply, not the whole log again).
 */
async function askByKeyboard(page: Page, window: Locator, question: string, reply: RegExp) {
  await expect(window.getByLabel('Your question')).toBeFocused();
  await page.keyboard.type(question);
  await page.keyboard.press('Enter');
  const conversation = window.getByRole('region', { name: 'Conversation' });
  await expect(conversation.getByRole('listitem').filter({ hasText: question })).toHaveCount(1);
  await expect(conversation.locator('[data-sender="bot"]').last()).toContainText(reply);
  await expect(window.getByRole('status').filter({ hasText: reply })).toHaveCount(1);
}

/** The links of the newest reply. */
const lastReplyLinks = (window: Locator) =>
  window.locator('[data-sender="bot"]').last().getByRole('link');

/**
 * Issue 25: a three-turn conversation in the widget, by keyboard, as a signed-in student, on the
 * demo library: a title, "who wrote it?", then "anything similar?"; each reply checked, each
 * announced, and its item links open the item's page.
 */
for (const width of [1280, 390]) {
  test(`a student holds a three-turn conversation with the Digi Chatbot at ${width} px`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto('/userprofile');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const window = await openByKeyboard(page);

    await askByKeyboard(page, window, 'do you have frankenstein?', /Frankenstein/);
    await expect(
      lastReplyLinks(window)
        .filter({ hasText: /^Frankenstein/ })
        .first(),
    ).toHaveAttribute('href', /\/userprofile\/openlibrary\?item=/);

    await askByKeyboard(page, window, 'who wrote it?', /Mary Wollstonecraft Shelley/);

    await askByKeyboard(page, window, 'anything similar?', /If you liked “Frankenstein/);
    const reply = window.locator('[data-sender="bot"]').last();
    // Each pick with why, never more than five, never Frankenstein itself as a pick.
    const picks = (await reply.locator('p').innerText())
      .split('\n')
      .filter((line) => line.startsWith('•'));
    expect(picks.length).toBeGreaterThan(0);
    expect(picks.length).toBeLessThanOrEqual(5);
    for (const pick of picks) expect(pick).toMatch(/\((Same author|Similar)[^)]*\)$/);
    expect(picks.filter((pick) => pick.startsWith('• “Frankenstein'))).toEqual([]);

    if (width < 500) await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // A pick's link, followed by keyboard, opens its page in the library.
    const link = lastReplyLinks(window).nth(1);
    const title = (await link.innerText()).trim();
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/userprofile\/openlibrary\?item=[0-9a-f-]{36}/);
    await expect(page.getByRole('heading', { name: title }).first()).toBeVisible();
  });
}
