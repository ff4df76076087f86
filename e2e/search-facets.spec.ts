import type { Page } from '@playwright/test';
import { DEMO_ITEMS } from '#server/db/demo-data.ts';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** The demo's books with 'gothic' among their subjects: `q=gothic` finds at least these. */
const GOTHIC = DEMO_ITEMS.filter(
  (item) => item.kind === 'book' && item.subjects?.includes('gothic'),
);

/** A cover that loads (a 1×1 PNG) and one that does not: the app falls back to a generated one. */
const GOOD_COVER = '/covers/e2e-good.png';
const BROKEN_COVER = '/covers/e2e-broken.jpg';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEBQIAhVQ+JgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Signs a new member in and serves the covers: the first result of every search gets a cover
 * that loads and the second one that fails (404); every other image answers 404, so no outside
 * address is fetched.
 */
async function prepare(page: Page, baseURL: string) {
  const shown: { titles: string[] } = { titles: [] };
  await registerViaApi(page.request, baseURL, newPerson());
  await page.route(
    (url) => url.origin !== new URL(baseURL).origin || url.pathname.startsWith('/covers/'),
    (route) =>
      route.request().url().endsWith(GOOD_COVER)
        ? route.fulfill({ status: 200, contentType: 'image/png', body: PNG })
        : route.fulfill({ status: 404, body: '' }),
  );
  await page.route('**/api/search?*', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    if (!Array.isArray(body.items)) return route.fulfill({ response });
    body.items = body.items.map((item: { coverUrl?: string }, index: number) =>
      index === 0
        ? { ...item, coverUrl: GOOD_COVER }
        : index === 1
          ? { ...item, coverUrl: BROKEN_COVER }
          : item,
    );
    shown.titles = body.items.map((item: { title: string }) => item.title);
    await route.fulfill({ response, json: body });
  });
  // An item's details: a cover that fails to load.
  await page.route('**/api/items/*', async (route) => {
    if (new URL(route.request().url()).pathname.split('/').length !== 4) return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), coverUrl: BROKEN_COVER } });
  });
  return shown;
}

test.describe('search facets, sort and covers', () => {
  test('apply a subject facet and a sort; the URL keeps them; covers fall back', async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const shown = await prepare(page, baseURL!);
    await page.goto('/userprofile/openlibrary?q=gothic');
    const status = page.getByRole('status').filter({ hasText: /result/ });
    await expect(status).toBeVisible();
    const facets = page.getByRole('region', { name: 'Refine results' });
    await expect(facets).toBeVisible();
    // Beside the results, no Filters button: the sidebar is a column of its own.
    await expect(page.getByRole('button', { name: /^Filters/ })).toBeHidden();

    // A subject facet: its count is the number of results it leaves.
    const gothic = facets.getByRole('button', { name: /^gothic \d+ results?$/ });
    const count = Number((await gothic.textContent())?.match(/(\d+) results?$/)?.[1]);
    expect(count).toBeGreaterThanOrEqual(GOTHIC.length);
    await gothic.click();
    await expect(page).toHaveURL(/subject=gothic/);
    await expect(gothic).toHaveAttribute('aria-pressed', 'true');
    await expect(status).toHaveText(`${count} result${count === 1 ? '' : 's'}`);

    // Sort by year: newest first.
    await page.getByLabel('Sort by').selectOption('year');
    await expect(page).toHaveURL(/sort=year/);
    const cards = page.getByRole('tabpanel').getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    // The new order arrives after the URL changes: read the cards until it has.
    await expect(async () => {
      const years = (await cards.locator('button').allTextContents())
        .map((text) => Number(text.match(/ · (-?\d{1,4})(?!\d)/)?.[1] ?? Number.NaN))
        .filter((year) => !Number.isNaN(year));
      expect(years.length).toBeGreaterThan(1);
      expect(years).toEqual([...years].sort((a, b) => b - a));
    }).toPass();

    // A reload keeps facet and sort.
    await page.reload();
    await expect(page.getByLabel('Sort by')).toHaveValue('year');
    await expect(
      page.getByRole('region', { name: 'Refine results' }).getByRole('button', { name: /^gothic/ }),
    ).toHaveAttribute('aria-pressed', 'true');

    // Covers: the first card's loads at its size; the second's fails and a generated one shows.
    const first = cards.nth(0);
    const image = first.locator('img');
    await expect(image).toHaveAttribute('src', GOOD_COVER);
    await expect(image).toHaveAttribute('alt', '');
    await expect(image).toHaveAttribute('width', '64');
    await expect(image).toHaveAttribute('height', '96');
    const second = cards.nth(1);
    await expect(second.locator('[data-generated-cover]')).toBeVisible();
    await expect(second.locator('img')).toHaveCount(0);
    // The generated cover holds the title, hidden from screen readers (the card says it).
    await expect(second.locator('[data-generated-cover]')).toContainText(shown.titles[1]!);
    await expect(second.locator('[data-generated-cover]')).toHaveAttribute('aria-hidden', 'true');
    await expectNoAxeViolations(page);

    // The item's detail: its cover fails too, and a large generated one stands in.
    await first.getByRole('button').click();
    const heading = page.getByRole('heading', { level: 2, name: shown.titles[0]! });
    await expect(heading).toBeVisible();
    const detail = page.getByRole('region', { name: shown.titles[0]! });
    // Its own cover comes first; "More like this" below has its cards' covers.
    await expect(detail.locator('[data-generated-cover]').first()).toContainText(shown.titles[0]!);
    await expect(detail.locator('img')).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test('on a phone the filters fold into a Filters panel above the results', async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await prepare(page, baseURL!);
    await page.goto('/userprofile/openlibrary?q=gothic&category=fiction');
    const toggle = page.getByRole('button', { name: 'Filters 1 active' });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByLabel('Author')).toBeHidden();
    await expect(page.getByRole('region', { name: 'Refine results' })).toBeHidden();
    // Folded, the first result is within the first screen.
    const firstCard = page.getByRole('tabpanel').getByRole('listitem').first();
    await expect(firstCard).toBeVisible();
    const top = await firstCard.evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeLessThan(844);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // By keyboard: the button opens the panel, whose facets apply at once.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByLabel('Author')).toBeVisible();
    const facets = page.getByRole('region', { name: 'Refine results' });
    await expect(facets).toBeVisible();
    const subject = facets.getByRole('button', { name: /^gothic/ });
    await subject.focus();
    await page.keyboard.press('Space');
    await expect(page).toHaveURL(/subject=gothic/);
    await expect(page.getByRole('button', { name: 'Filters 2 active' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // Closed again by keyboard.
    await page.getByRole('button', { name: 'Filters 2 active' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Author')).toBeHidden();
  });
});
