import type { Page } from '@playwright/test';
import { simulateMonth } from '../scripts/simulate-activity.ts';
import { E2E_LIBRARIAN, newPerson, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** Where the pictures of the screen go, to be looked at (issue 27). */
const SHOTS = process.env.INSIGHTS_SHOTS_DIR ?? '';

async function signInAsLibrarian(page: Page): Promise<void> {
  await page.goto('/signin');
  await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(page).toHaveURL(/\/facultyprofile$/);
}

for (const width of [1280, 390]) {
  test.describe(`library insights at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('after a simulated month, a librarian acts on a search that found nothing', async ({
      page,
      baseURL,
    }, testInfo) => {
      test.setTimeout(60_000);
      await signInAsLibrarian(page);
      // A month of activity at once (the server's test route, backdated a day at a time), under
      // a prefix of its own so that the two widths' runs and retries never count each other's.
      const prefix = `w${width}x${testInfo.retry}${Date.now().toString(36).slice(-4)}`;
      const cookie = (await page.context().cookies())
        .map((entry) => `${entry.name}=${entry.value}`)
        .join('; ');
      const month = await simulateMonth({ baseURL: baseURL!, cookie, prefix, days: 30 });
      const { terms } = month;
      expect(month.noShows).toBeGreaterThan(0);

      await page.goto('/desk');
      // The desk's numbers for today, open reports among them, each a link.
      await expect(
        page
          .getByRole('navigation', { name: 'Needs action today' })
          .getByRole('link', { name: /open reports$/ }),
      ).toHaveAttribute('href', '/desk/moderation');
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/desk-${width}.png` });
      await page.getByRole('link', { name: 'Insights' }).click();
      await expect(page.getByRole('heading', { name: 'Library insights', level: 1 })).toBeVisible();
      await expect(
        page
          .getByRole('region', { name: 'Searches that found nothing' })
          .getByRole('list', { name: 'Terms to act on' })
          .getByText(terms.wanted[0], { exact: true }),
      ).toBeVisible();

      const empty = page.getByRole('region', { name: 'Searches that found nothing' });
      await expect(empty.getByText(terms.wanted[1], { exact: true }).first()).toBeVisible();
      // Searched by only 3 people a day: never listed, anywhere on the screen or in the CSV.
      await expect(page.getByText(terms.rare)).toHaveCount(0);

      // The chatbot's unanswered question, its three wordings one group; the rare one never.
      const questions = page.getByRole('region', { name: 'Chatbot questions it could not answer' });
      await expect(
        questions
          .getByRole('list', { name: 'Questions to teach it' })
          .getByRole('listitem')
          .filter({ hasText: '(180 questions, 3 wordings)' })
          .filter({ hasText: prefix }),
      ).toBeVisible();
      await expect(page.getByText(terms.rareQuestion.toLowerCase().replace('?', ''))).toHaveCount(
        0,
      );
      // The month's circulation and requests are there too.
      await expect(
        page
          .getByRole('region', { name: 'Pickups by weekday and hour' })
          .getByText(/^No-show rate: \d+%/),
      ).toBeVisible();
      await expect(
        page
          .getByRole('region', { name: 'Resource requests' })
          .getByText(/^Median time to an answer/),
      ).toBeVisible();

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
      expect(text).toContain(`"${terms.wanted[0]}","180"`);
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
