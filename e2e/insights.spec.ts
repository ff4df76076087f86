import type { Page } from '@playwright/test';
import { simulateActivity, type SimulatedTerms } from '../scripts/simulate-activity.ts';
import { E2E_LIBRARIAN, newPerson, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** Where the pictures of the screen go, to be looked at (issue 27). */
const SHOTS = process.env.INSIGHTS_SHOTS_DIR ?? '';

async function signInAsLibrarian(page: Page): Promise<void> {
  await page.goto('/signin');
  await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(page).toHaveURL(/\/facultyprofile$/);
}

/** Opens insights until the simulated terms are counted (the server writes every 5 seconds). */
async function openInsights(page: Page, terms: SimulatedTerms): Promise<void> {
  await expect(async () => {
    await page.goto('/desk/insights?period=30');
    await expect(
      page
        .getByRole('region', { name: 'Searches that found nothing' })
        .getByRole('list', { name: 'Terms to act on' })
        .getByText(terms.wanted[0], { exact: true }),
    ).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 45_000 });
}

for (const width of [1280, 390]) {
  test.describe(`library insights at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('after a simulated run of activity, a librarian acts on a search that found nothing', async ({
      page,
      baseURL,
    }, testInfo) => {
      test.setTimeout(120_000);
      // A prefix of its own, so the two widths' runs and retries never count each other's terms.
      const prefix = `w${width}x${testInfo.retry}${Date.now().toString(36).slice(-4)}`;
      const terms = await simulateActivity({ baseURL: baseURL!, prefix });

      await signInAsLibrarian(page);
      await page.goto('/desk');
      await page.getByRole('link', { name: 'Insights' }).click();
      await expect(page.getByRole('heading', { name: 'Library insights', level: 1 })).toBeVisible();
      await openInsights(page, terms);

      const empty = page.getByRole('region', { name: 'Searches that found nothing' });
      await expect(empty.getByText(terms.wanted[1], { exact: true }).first()).toBeVisible();
      // Searched by only 3 people: never listed, anywhere on the screen or in the CSV.
      await expect(page.getByText(terms.rare)).toHaveCount(0);

      // The chart's table, by keyboard: the toggle takes the focus and opens a real table.
      // Its name turns from "Show as table" to "Hide table" as it opens.
      const toggle = empty.getByRole('button', { name: /(Show as|Hide) table/ });
      await expect(toggle).toHaveAccessibleName(/^Show as table/);
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(toggle).toHaveAccessibleName(/^Hide table/);
      const table = empty.getByRole('region', { name: 'Searches that found nothing: table' });
      await page.keyboard.press('Tab');
      await expect(table).toBeFocused();
      await expect(table.getByRole('rowheader', { name: terms.wanted[0] })).toBeVisible();

      await expect(page.getByText('Loading…')).toHaveCount(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/insights-${width}.png`, fullPage: true });

      // The CSV of the same panel: the listed terms, never the rare one.
      const downloading = page.waitForEvent('download');
      await empty.getByRole('link', { name: /Download CSV/ }).click();
      const download = await downloading;
      const csv = await (await download.createReadStream()).toArray();
      const text = Buffer.concat(csv).toString('utf8');
      expect(text).toContain(`"${terms.wanted[0]}","6"`);
      expect(text).not.toContain(terms.rare);

      // "Add to catalogue" opens the new item form with the term as its title.
      await empty
        .getByRole('list', { name: 'Terms to act on' })
        .getByRole('link', { name: new RegExp(`^Add to catalogue ?: ${terms.wanted[0]}$`) })
        .click();
      await expect(page).toHaveURL(/\/desk\/catalogue\/new\?title=/);
      await expect(page.getByLabel('Title')).toHaveValue(terms.wanted[0]);
      await page.getByRole('button', { name: 'Add to the catalogue' }).click();
      await expect(page).toHaveURL(/\/desk\/catalogue\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('heading', { name: terms.wanted[0], level: 1 })).toBeVisible();
    });
  });
}
