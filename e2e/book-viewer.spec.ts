import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ROUTES } from '#contract/routes.ts';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** The demo's Frankenstein: a reading guide and a chapter-by-chapter companion, many headings. */
const FRANKENSTEIN = 'Frankenstein; or, The Modern Prometheus';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = process.env.VIEWER_SHOTS_DIR ?? '/tmp/viewer-shots';

async function frankensteinId(page: Page): Promise<string> {
  const answer = await page.request.get(
    `/api/search?${new URLSearchParams({ q: 'frankenstein modern prometheus', type: 'book' })}`,
  );
  expect(answer.ok()).toBe(true);
  const { items } = (await answer.json()) as { items: { id: string; title: string }[] };
  const book = items.find((item) => item.title === FRANKENSTEIN);
  if (!book) throw new Error('the demo Frankenstein is not in the catalogue');
  return book.id;
}

/** The page area: a region named "Page x of y". */
const pageArea = (page: Page) => page.getByRole('region', { name: /^Page \d+ of \d+$/ });

/** The page the address names. */
const addressPage = (page: Page) => Number(new URL(page.url()).searchParams.get('page'));

test.describe('the book viewer', () => {
  test('a student reads Frankenstein with the keyboard only: contents, search, arrows, theme, resume', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await registerViaApi(page.request, baseURL!, newPerson());
    const id = await frankensteinId(page);

    // A first visit: page 1, nothing to resume.
    await page.goto(`${ROUTES.librarySearch}?item=${id}`);
    await expect(page.getByRole('heading', { level: 2, name: FRANKENSTEIN })).toBeVisible();
    await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
    await expect(page.getByText(/You were reading page/)).toHaveCount(0);

    // Contents: the panel beside the page; Chapter 5 is a keypress away.
    const contentsButton = page.getByRole('button', { name: 'Contents' });
    await contentsButton.press('Enter');
    const contents = page.getByRole('region', { name: 'Contents' });
    await expect(contents).toBeVisible();
    await expect(contents).toBeFocused();
    const chapter5 = contents.getByRole('button', { name: /^Chapter 5, page \d+$/ });
    await chapter5.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]page=\d+/);
    const chapterPage = addressPage(page);
    expect(chapterPage).toBeGreaterThan(1);
    await expect(pageArea(page).getByRole('heading', { name: 'Chapter 5' })).toBeVisible();
    await expect(page.locator('p').filter({ hasText: /^Chapter: Chapter 5$/ })).toBeVisible();
    await expect(chapter5).toHaveAttribute('aria-current', 'true');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/viewer-contents-1280.png` });

    // Escape closes the panel and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await expect(contents).toBeHidden();
    await expect(contentsButton).toBeFocused();

    // Search in book: every page with "creature", a jump marks the word on the page.
    await page.getByRole('button', { name: 'Search in book' }).press('Enter');
    const box = page.getByLabel('Words to find in this book');
    await expect(box).toBeFocused();
    await page.keyboard.type('creature');
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('status').filter({ hasText: /pages? holds? “creature”/ }),
    ).toBeVisible();
    const hits = page.getByRole('list', { name: 'Pages found' }).getByRole('button');
    expect(await hits.count()).toBeGreaterThan(1);
    await expect(hits.first().locator('mark').first()).toHaveText(/creature/i);
    const target = hits.nth(1);
    const targetPage = Number(/Page (\d+)/.exec((await target.textContent()) ?? '')?.[1]);
    await target.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${targetPage}(&|$)`));
    await expect(pageArea(page).locator('mark').first()).toHaveText(/creature/i);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/viewer-search-1280.png` });

    // ← and → turn pages (the focus is on a hit, a button, not a field); Back returns.
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${targetPage + 1}(&|$)`));
    await page.keyboard.press('ArrowLeft');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${targetPage}(&|$)`));
    const readingPage = targetPage + 1;
    // The page shown for a second is kept as where the reader is.
    const saved = page.waitForResponse(
      (response) =>
        response.url().endsWith(`/api/items/${id}/progress`) &&
        response.request().method() === 'PUT' &&
        (response.request().postDataJSON() as { page: number }).page === readingPage,
    );
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`[?&]page=${readingPage}(&|$)`));
    await expect(page.getByText(`Page ${readingPage} of`, { exact: false })).toBeVisible();

    // Display: a dark theme and larger text, kept for the person.
    await page.getByRole('button', { name: 'Display' }).press('Enter');
    const display = page.getByRole('region', { name: 'Display' });
    await expect(display).toBeFocused();
    await display.getByRole('radio', { name: 'Dark' }).focus();
    await page.keyboard.press('Space');
    await expect(pageArea(page)).toHaveAttribute('data-theme', 'dark');
    await display.getByRole('radio', { name: 'Large', exact: true }).focus();
    await page.keyboard.press('Space');
    await expect(pageArea(page)).toHaveAttribute('data-size', 'large');
    expect((await saved).ok()).toBe(true);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/viewer-dark-1280.png` });

    // Back later without a page in the address: offered to continue, still dark.
    await page.goto(`${ROUTES.librarySearch}?item=${id}`);
    const resume = page.getByRole('button', { name: `Continue from page ${readingPage}` });
    await expect(resume).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start from the beginning' })).toBeVisible();
    await expect(pageArea(page)).toHaveAttribute('data-theme', 'dark');
    await expectNoAxeViolations(page);
    await resume.evaluate((button) => button.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: `${SHOTS}/viewer-resume-1280.png` });
    await resume.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${readingPage}(&|$)`));
    await expect(resume).toHaveCount(0);

    // The student home lists the book under "Continue reading", at that page.
    await page.goto(ROUTES.studentHome);
    const recent = page.getByRole('region', { name: 'Continue reading' });
    const card = recent.getByRole('link', { name: new RegExp(`Frankenstein`) });
    await expect(card).toContainText(new RegExp(`Page ${readingPage} of \\d+`));
    await expectNoAxeViolations(page);
    await recent.evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SHOTS}/continue-reading-1280.png` });
    await card.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${readingPage}(&|$)`));
    await expect(page.getByRole('button', { name: /Continue from page/ })).toHaveCount(0);
  });

  test('on a phone the panels are drawers, the toolbar wraps and nothing scrolls sideways', async ({
    page,
    baseURL,
  }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await registerViaApi(page.request, baseURL!, newPerson());
    const id = await frankensteinId(page);
    await page.goto(`${ROUTES.librarySearch}?item=${id}&page=3`);
    await expect(page.getByText(/^Page 3 of \d+$/)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page
      .getByRole('group', { name: 'Reading tools' })
      .evaluate((tools) => tools.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${SHOTS}/viewer-390.png` });

    // Contents as a modal drawer: focus moves in, Escape closes, focus returns to its button.
    const contentsButton = page.getByRole('button', { name: 'Contents' });
    await contentsButton.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Contents' });
    await expect(drawer).toBeVisible();
    await expect(drawer).toBeFocused();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/viewer-drawer-390.png` });
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(contentsButton).toBeFocused();

    // A jump from the drawer closes it and shows the page.
    await contentsButton.press('Enter');
    const entry = drawer.getByRole('button', { name: /^Chapter 1, page \d+$/ });
    await entry.focus();
    await page.keyboard.press('Enter');
    await expect(drawer).toBeHidden();
    await expect(pageArea(page).getByRole('heading', { name: 'Chapter 1' })).toBeVisible();

    // Search in book, in its drawer too.
    await page.getByRole('button', { name: 'Search in book' }).press('Enter');
    const search = page.getByRole('dialog', { name: 'Search in book' });
    await expect(search.getByLabel('Words to find in this book')).toBeFocused();
    await page.keyboard.type('creature');
    await page.keyboard.press('Enter');
    await expect(search.getByRole('list', { name: 'Pages found' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/viewer-search-390.png` });
  });
});
