import type { Locator, Page } from '@playwright/test';
import { RELATED_REASONS } from '#contract/http/catalogue.ts';
import { ROUTES } from '#contract/routes.ts';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

const FRANKENSTEIN = 'Frankenstein; or, The Modern Prometheus';
/** A Drive link in the shape the reader opens (the demo's course materials have none). */
const DRIVE_LINK = 'https://drive.google.com/file/d/1GothicSeminarReaderAbCdEfGhIjK/view';

/** A card's words end with its reason, one of the API's (by meaning or, before, by metadata). */
const ENDS_WITH_REASON = new RegExp(`(${RELATED_REASONS.join('|')})$`);
const ITEM_LINK = new RegExp(`^${ROUTES.librarySearch}\\?item=[0-9a-f-]{36}$`);

/**
 * "More like this" as a person meets it, whether or not the catalogue's embeddings are ready:
 * one to six cards, each a link to an item that says why it is listed, reached one after another
 * by Tab. Returns each card's address and words.
 */
async function expectRelatedCards(section: Locator): Promise<{ href: string; text: string }[]> {
  const links = section.getByRole('link');
  await expect(links.first()).toBeVisible({ timeout: 15_000 });
  await expect(section).toHaveAttribute('aria-busy', 'false');
  const count = await links.count();
  expect(count).toBeLessThanOrEqual(6);
  const cards: { href: string; text: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    const link = links.nth(index);
    await expect(link).toHaveText(ENDS_WITH_REASON);
    await expect(link).toHaveAttribute('href', ITEM_LINK);
    cards.push({
      href: (await link.getAttribute('href'))!,
      text: ((await link.textContent()) ?? '').trim(),
    });
  }
  await links.first().focus();
  for (let index = 1; index < count; index += 1) {
    await links.first().page().keyboard.press('Tab');
    await expect(links.nth(index)).toBeFocused();
  }
  return cards;
}

/** Each card opens its own item: its details page, headed by the title the card showed. */
async function expectCardsOpenTheirItems(page: Page, cards: { href: string; text: string }[]) {
  for (const card of cards) {
    await page.goto(card.href);
    const title = page.getByRole('main').getByRole('heading', { level: 2 });
    await expect(title).toBeVisible();
    expect(card.text.startsWith((await title.textContent()) ?? '\u0000')).toBe(true);
  }
}

test.describe('more like this', () => {
  test('a student sees items like Frankenstein on its page, each with why, and opens them', async ({
    page,
    baseURL,
  }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto(`${ROUTES.librarySearch}?q=${encodeURIComponent(FRANKENSTEIN)}`);
    await page.getByRole('button', { name: FRANKENSTEIN }).first().click();
    await expect(page.getByRole('heading', { level: 2, name: FRANKENSTEIN })).toBeVisible();
    const section = page.getByRole('region', { name: 'More like this' });
    await expect(section.getByRole('heading', { level: 3 })).toHaveText('More like this');
    const cards = await expectRelatedCards(section);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // A click on the first card opens that item in place; the others open from their links.
    const [first, ...others] = cards;
    await section.getByRole('link').first().click();
    await expect(page).toHaveURL(first!.href);
    const title = page.getByRole('main').getByRole('heading', { level: 2 });
    await expect(title).not.toHaveText(FRANKENSTEIN);
    expect(first!.text.startsWith((await title.textContent())!)).toBe(true);
    await expectCardsOpenTheirItems(page, others);
  });

  test('the reader shows what is like the course material it opened', async ({
    page,
    browser,
    baseURL,
  }) => {
    // A lecturer publishes a reader for a gothic-fiction seminar: the demo's gothic novels share
    // its subject (its genre) before any embedding exists, and are near it in meaning after.
    const course = `Gothic Fiction Seminar Reader ${Date.now()}`;
    const facultyContext = await browser.newContext({ baseURL });
    const faculty = await facultyContext.newPage();
    await registerViaApi(faculty.request, baseURL!, newPerson({ role: 'faculty' }));
    const published = await faculty.request.post('/api/faculty/post-book', {
      headers: { origin: baseURL! },
      data: {
        title: course,
        author: 'Dr. Ines Moreau',
        publishedDate: '2026-09-01',
        driveLink: DRIVE_LINK,
        instituteName: 'Campus University',
        genre: 'gothic',
      },
    });
    expect(published.status()).toBe(200);
    await facultyContext.close();

    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto(`${ROUTES.librarySearch}?tab=courses`);
    await page
      .getByRole('listitem')
      .filter({ hasText: course })
      .getByRole('button', { name: 'Open in reader' })
      .click();
    await expect(page).toHaveURL(new RegExp(`${ROUTES.reader}$`));
    const section = page.getByRole('region', { name: 'More like this' });
    await expect(section.getByRole('heading', { level: 2 })).toHaveText('More like this');
    const cards = await expectRelatedCards(section);
    expect(cards.some((card) => card.text.startsWith(course))).toBe(false);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await expectCardsOpenTheirItems(page, cards.slice(0, 1));
  });
});
