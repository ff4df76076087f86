import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

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

/** Runs axe-core on the page as it is now and fails with the list of violations. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}
