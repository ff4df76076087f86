import { readFile } from 'node:fs/promises';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

test.describe('my account', () => {
  test('a student edits their profile and changes their password, signing out their other browser', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const person = newPerson({ firstName: 'Grace', lastName: 'Hopper' });
    await registerViaApi(page.request, baseURL!, person);
    // The same person, signed in in another browser too.
    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    const login = await otherPage.request.post('/api/users/login', {
      headers: { origin: baseURL! },
      data: { email: person.email, password: person.password },
    });
    expect(login.ok()).toBe(true);

    await page.goto('/userprofile');
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Account' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account');
    await expect(page.getByText(person.email)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('account-1280.png'), fullPage: true });

    // The profile: a bad phone number is named beside its box; then saved, and kept.
    await page.getByLabel('Phone number').fill('call me');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Enter a valid phone number')).toBeVisible();
    await page.getByLabel('Phone number').fill('+1 555 0199');
    await page.getByLabel('Department').fill('Naval Computing');
    await page.getByLabel('Graduation year').fill('');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Your profile is saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Department')).toHaveValue('Naval Computing');
    await expect(page.getByLabel('Graduation year')).toHaveValue('');

    // The password: the wrong current one is told so; then changed.
    const newPassword = 'seven quiet lighthouses count the tides';
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password again').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('That is not your current password.')).toBeVisible();
    await page.getByLabel('Current password').fill(person.password);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password again').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(
      page.getByText(
        'Your password is changed. You stay signed in here; every other browser is signed out.',
      ),
    ).toBeVisible();

    // Still signed in here; the other browser is not.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account');
    const otherMe = await otherPage.request.get('/api/users/me');
    expect((await otherMe.json()).user).toBeNull();
    await other.close();

    // One's data, as a file.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download my data (JSON)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('digi-library-my-data.json');
    const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(data.profile).toMatchObject({ email: person.email, department: 'Naval Computing' });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath('account-390.png'), fullPage: true });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  });
});
