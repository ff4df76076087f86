import { expect, expectNoAxeViolations, test } from './fixtures.ts';

test.describe('the API reference', () => {
  test('a person opening /api/docs reads the operations, under the strict CSP', async ({
    page,
    request,
  }, testInfo) => {
    // The reference renders every operation and axe checks all of them twice: on a busy
    // two-core machine that alone takes most of the default 30 s.
    test.slow();
    const opened = await page.goto('/api/docs');
    expect(page.url()).toMatch(/\/api\/docs\/reference\/$/);
    const csp = opened!.headers()['content-security-policy'] ?? '';
    // Scripts from this server only: none inline, none from another site.
    expect(csp.split(';').find((part) => part.startsWith('script-src'))).toBe("script-src 'self'");

    await expect(page.getByRole('heading', { name: /Digi Library API/ })).toBeVisible();
    // Some operations of each kind, grouped by tag.
    await expect(page.getByRole('heading', { name: /^catalogue\b/ })).toBeVisible();
    for (const path of ['/api/search', '/api/users/reservation', '/api/docs/openapi.json'])
      await expect(page.getByText(path, { exact: true }).first()).toBeVisible();

    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('api-docs.png') });

    // An operation opens to show its parameters, answers and examples.
    await page.getByText('/api/search', { exact: true }).first().click();
    await expect(page.getByText('pageSize').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Responses' }).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('api-docs-operation.png') });

    // Programs that read the JSON still get it at both addresses.
    for (const url of ['/api/docs', '/api/docs/openapi.json']) {
      const response = await request.get(url, { headers: { accept: 'application/json' } });
      expect(response.status()).toBe(200);
      expect((await response.json()).openapi).toBe('3.1.1');
    }
  });
});
