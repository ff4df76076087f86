import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

test.describe('delete my account', () => {
  test('a student reads what deleting does, confirms with the password, and cannot sign in again', async ({
    page,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const person = newPerson({ firstName: 'Rosalind', lastName: 'Franklin' });
    await registerViaApi(page.request, baseURL!, person);

    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Delete my account' });
    await expect(section.getByRole('listitem')).toContainText([
      'You have no active reservations to cancel.',
      'You are in no waiting list.',
      'You have filed no resource requests.',
      'You created no forum rooms.',
      'Any message you left in other people’s forum rooms would stay, shown as from “Deleted account”.',
      'The library’s record of your past loans stays, without your name.',
      'You are signed out everywhere, and this cannot be undone.',
    ]);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);

    // The wrong password is said beside the field, after the second yes; nothing is deleted.
    await section.getByLabel('Your password').fill('not my password at all');
    await section.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account for good?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep my account' })).toBeFocused();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(section.getByText('That is not your password.')).toBeVisible();

    await section.getByLabel('Your password').fill(person.password);
    await section.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    // The landing page has other live regions (the search box's suggestion count): this one.
    await expect(
      page.getByRole('status').filter({ hasText: 'Your account is deleted' }),
    ).toHaveText(
      'Your account is deleted and you are signed out. Thank you for using the library.',
    );
    await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('account-deleted-390.png') });

    // Signed out here, and the account is gone: signing in again fails.
    expect((await (await page.request.get('/api/users/me')).json()).user).toBeNull();
    const again = await page.request.post('/api/users/login', {
      headers: { origin: baseURL! },
      data: { email: person.email, password: person.password },
    });
    expect(again.status()).toBe(401);
  });
});
