import type { Page } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

/** Goes through the institution's provider: its login page, then its consent page if it asks. */
async function signInAtProvider(page: Page, login: string) {
  await page.getByRole('button', { name: 'Continue with Campus Login' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password at all');
  await page.locator('button[type="submit"]').click();
  const consent = page.locator('button[type="submit"]', { hasText: /continue|authorize/i });
  if (await consent.isVisible({ timeout: 2_000 }).catch(() => false)) await consent.click();
}

test.describe('sign-in with the institution (OpenID Connect)', () => {
  test('a new identity completes its profile, then lands by role; next time it goes straight home', async ({
    page,
  }) => {
    const email = `nova.quinn.smith.${Date.now()}@uni.example`;
    await page.goto('/signin');
    await signInAtProvider(page, email);

    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Complete Your Profile');
    await expect(
      page.getByText('Welcome Nova! Please complete your academic profile.'),
    ).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveValue('Nova');
    await expect(page.getByLabel('Last name')).toHaveValue(/^Quinn Smith/);
    await expect(page.getByLabel('Email')).toHaveValue(email);
    for (const label of ['First name', 'Last name', 'Email']) {
      await expect(page.getByLabel(label)).toHaveAttribute('readonly', '');
    }
    await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);
    await expectNoAxeViolations(page);

    // The identity is signed in but has no account in the library's sense yet.
    const lookup = await page.request.post('/api/users/signin', {
      data: { email },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(await lookup.json()).toEqual({ success: false, message: 'User not found in system' });

    await page.getByLabel('Phone number').fill('+1 555 010 7777');
    await page.getByLabel('Faculty').check();
    await page.getByLabel('Institution name').fill('Campus University');
    await page.getByLabel('Department').fill('Physics');
    await page.getByLabel('Student ID').fill('F-99');
    await page.getByLabel('Graduation year').fill('2029');
    await page.getByRole('button', { name: 'Complete Registration' }).click();
    await expect(page).toHaveURL(/\/facultyprofile$/);
    const me = await (await page.request.get('/api/users/me')).json();
    expect(me.user).toMatchObject({
      email,
      role: 'faculty',
      signupMethod: 'oidc',
      firstName: 'Nova',
      profileCompleted: true,
      // The institution signed the person in with this address: it counts as verified.
      emailVerified: true,
    });
    await expect(page.getByRole('region', { name: 'Verify your e-mail address' })).toHaveCount(0);

    // Signed out of the library and back in: the provider still knows the person (single
    // sign-on), so one click leads straight to the faculty home.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Continue with Campus Login' }).click();
    await expect(page).toHaveURL(/\/facultyprofile$/);
  });

  test('an identity never takes over an existing password account by e-mail', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = newPerson();
    await registerViaApi(request, baseURL!, person);
    await page.goto('/signin');
    await signInAtProvider(page, person.email);
    await expect(page).toHaveURL(/\/signin\?error=/);
    await expect(page.getByRole('alert')).toContainText(
      'An account with this e-mail already exists',
    );
    const me = await (await page.request.get('/api/users/me')).json();
    expect(me.user).toBeNull();
  });
});
