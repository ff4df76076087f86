import { expect, expectNoAxeViolations, test, expectNoSidewaysScroll } from './fixtures.ts';

test.describe('landing page', () => {
  test('shows the top bar, hero, discover section and footer of the spec', async ({ page }) => {
    await page.goto('/');

    const topBar = page.getByRole('banner');
    await expect(topBar.getByRole('link', { name: 'Digi Library' })).toHaveAttribute('href', '/');
    await expect(topBar.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/signin');
    await expect(topBar.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');

    await expect(page.getByText('Academic Resource Hub')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Bridging the Gap in Academic Resource Access',
    );
    await expect(
      page.getByText(/centralized platform connecting students and researchers/),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Explore Resources' })).toHaveAttribute(
      'href',
      '/signin',
    );
    await expect(page.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/signin');
    const hero = page.locator('img[width="500"]');
    await expect(hero).toBeVisible();

    await expect(page.getByRole('heading', { name: 'Discover research' })).toBeVisible();
    await expect(page.getByText('Access over 160 million publication pages')).toBeVisible();
    await expect(page.getByPlaceholder('Search publications')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Search' })).toBeVisible();

    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { name: 'Digi Library' })).toBeVisible();
    await expect(footer.getByText('1 University Avenue, Campus Town, CT 10001')).toBeVisible();
    await expect(footer.getByRole('link', { name: '+1 (555) 010-4200' })).toHaveAttribute(
      'href',
      'tel:+15550104200',
    );
    await expect(footer.getByRole('link', { name: 'library@digilibrary.example' })).toHaveAttribute(
      'href',
      'mailto:library@digilibrary.example',
    );
    for (const line of [
      'Monday-Friday: 8:00 AM-10:00 PM',
      'Saturday: 9:00 AM-6:00 PM',
      'Sunday: 12:00 PM-8:00 PM',
      'Holiday hours may vary.',
    ]) {
      await expect(footer.getByText(line)).toBeVisible();
    }
    const social = footer
      .getByRole('list')
      .filter({ has: page.getByRole('link', { name: /Facebook/ }) })
      .getByRole('link');
    await expect(social).toHaveCount(4);
    for (const [name, href] of <const>[
      ['Facebook', 'https://www.facebook.com/'],
      ['X (Twitter)', 'https://x.com/'],
      ['Instagram', 'https://www.instagram.com/'],
      ['LinkedIn', 'https://www.linkedin.com/'],
    ]) {
      const link = footer.getByRole('link', {
        name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`),
      });
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
    }
  });

  test('Explore Resources and Learn More lead to the sign-in screen', async ({ page }) => {
    for (const name of ['Explore Resources', 'Learn More']) {
      await page.goto('/');
      await page.getByRole('link', { name }).click();
      await expect(page).toHaveURL(/\/signin$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    }
  });

  test('counters animate from 0 to 10K+, 5K+ and 100+ over two seconds', async ({ page }) => {
    // Time stands still until the test moves it, so every step of the animation is checked exactly.
    const start = Date.now();
    await page.clock.install({ time: start });
    await page.clock.pauseAt(start + 1_000);
    await page.goto('/');
    const counters = page.locator('[data-counter]');
    await expect(counters).toHaveText(['0K+', '0K+', '0+']);
    await page.clock.runFor(1_000);
    const midway = await counters.allTextContents();
    expect(midway).not.toEqual(['0K+', '0K+', '0+']);
    expect(midway).not.toEqual(['10K+', '5K+', '100+']);
    await page.clock.runFor(1_100);
    await expect(counters).toHaveText(['10K+', '5K+', '100+']);
    // Screen readers get the final figures, not the moving ones.
    await expect(page.getByRole('list', { name: 'The library in numbers' })).toContainText(
      '10K+ Research Papers',
    );
  });

  test('the counters do not shift the layout while they run', async ({ page }) => {
    await page.goto('/');
    await page.waitForTimeout(2_300);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[];
            resolve(
              entries
                .filter((entry) => !entry.hadRecentInput)
                .reduce((sum, entry) => sum + entry.value, 0),
            );
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(0), 500);
        }),
    );
    expect(shift).toBeLessThan(0.01);
  });

  test('the search form carries the query to /guest in navigation state and the address', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByPlaceholder('Search publications').fill('machine learning');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/guest\?q=machine\+learning$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Results for “machine learning”',
    );
    // No book holds both words: those holding one of them are listed (issue 23, "most words").
    await expect(page.getByText('Loading…')).toHaveCount(0);
    await expect(page.getByText('No books found for your search')).toHaveCount(0);
    expect(await page.evaluate(() => (window.history.state as { usr?: unknown }).usr)).toEqual({
      searchQuery: 'machine learning',
    });
    // The address alone brings the same results back (a shared link, a new tab).
    await page.goto('/guest?q=machine+learning');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Results for “machine learning”',
    );
  });

  test('an empty search is not blocked and the guest screen says what to do', async ({ page }) => {
    await page.goto('/');
    await page.getByPlaceholder('Search publications').press('Enter');
    await expect(page).toHaveURL(/\/guest$/);
    await expect(page.getByText('Try searching for a book.')).toBeVisible();
  });

  test('the keyboard reaches every control in order', async ({ page }) => {
    await page.goto('/');
    // The footer's links come with the library's details, read after the page shows: tabbing
    // before they arrive would pass them by (it did once, on a busy machine).
    await expect(page.getByRole('link', { name: 'LinkedIn (opens in a new tab)' })).toBeVisible();
    const reached: string[] = [];
    for (let step = 0; step < 16; step += 1) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          return element?.getAttribute('placeholder') ?? element?.textContent?.trim() ?? '';
        }),
      );
    }
    expect(reached.slice(0, 8)).toEqual([
      'Skip to main content',
      'Digi Library',
      'Sign In',
      'Sign Up',
      'Explore Resources',
      'Learn More',
      'Search publications',
      'Search',
    ]);
    expect(reached).toEqual(
      expect.arrayContaining(['Facebook (opens in a new tab)', 'LinkedIn (opens in a new tab)']),
    );
  });

  test('the skip link moves focus to the main content', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
  });

  for (const width of [1280, 390]) {
    test(`reads well at ${width} px: nothing overflows and axe finds nothing`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await expect(
        page.getByRole('contentinfo').getByRole('heading', { name: 'Digi Library' }),
      ).toBeVisible();
      await expectNoSidewaysScroll(page);
      for (const name of ['Sign In', 'Sign Up']) {
        const box = await page.getByRole('banner').getByRole('link', { name }).boundingBox();
        expect(box?.height, `${name} stays on one line`).toBeLessThan(50);
      }
      await expectNoAxeViolations(page);
    });
  }
});
