import type { Page } from '@playwright/test';
import { E2E_LIBRARIAN, newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

async function signInAsLibrarian(page: Page) {
  await page.goto('/signin');
  await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(page).toHaveURL(/\/facultyprofile$/);
}

async function searchFor(page: Page, text: string) {
  await page.getByLabel('Name, e-mail or student ID').fill(text);
  await page.getByLabel('Name, e-mail or student ID').press('Enter');
}

test.describe('/desk/people', () => {
  test('a librarian promotes a student and back, disables them (signed out at once), and cannot disable themselves', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // The student, signed in in a browser of their own.
    const studentContext = await browser.newContext({ baseURL });
    const studentPage = await studentContext.newPage();
    const student = newPerson({ firstName: 'Katherine', lastName: 'Johnson' });
    await registerViaApi(studentPage.request, baseURL!, student);
    await studentPage.goto('/userprofile');
    await expect(studentPage.getByRole('heading', { level: 1 })).toContainText('Katherine');

    await signInAsLibrarian(page);
    await page.goto('/desk');
    await page.getByRole('link', { name: 'People: roles and accounts' }).click();
    await expect(page).toHaveURL(/\/desk\/people$/);
    await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
    await searchFor(page, student.email);
    const row = page.getByRole('row', { name: /Katherine Johnson/ });
    await expect(row).toContainText(student.email);
    await expect(row).toContainText('S-42');
    await expect(row.getByRole('cell', { name: 'Student', exact: true })).toBeVisible();
    await expect(row).toContainText('Active');

    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('desk-people-1280.png'), fullPage: true });

    // Promote by keyboard: the button, the select, the confirmation.
    await row.getByRole('button', { name: 'Change role of Katherine Johnson' }).focus();
    await page.keyboard.press('Enter');
    const roleDialog = page.getByRole('dialog', { name: 'Change the role of Katherine Johnson' });
    await expect(roleDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await roleDialog.getByLabel('New role').selectOption('faculty');
    await expectNoAxeViolations(page);
    await roleDialog.getByRole('button', { name: 'Change role' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is now faculty' })).toBeFocused();
    await expect(row.getByRole('cell', { name: 'Faculty', exact: true })).toBeVisible();
    // Their next request already sees the new role: faculty's requests screen opens.
    await studentPage.goto('/requests');
    await expect(studentPage.getByRole('heading', { level: 1 })).toHaveText('Resource requests');

    await row.getByRole('button', { name: 'Change role of Katherine Johnson' }).click();
    await roleDialog.getByLabel('New role').selectOption('student');
    await roleDialog.getByRole('button', { name: 'Change role' }).click();
    await expect(page.getByText('Katherine Johnson is now student.')).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Student', exact: true })).toBeVisible();

    // Disabling says why it matters, and the student's browser is signed out on its next request.
    await row.getByRole('button', { name: 'Disable Katherine Johnson' }).click();
    const disable = page.getByRole('alertdialog', { name: 'Disable Katherine Johnson’s account?' });
    await expect(disable).toContainText('Their sessions end at once');
    await disable.getByRole('button', { name: 'Disable account' }).click();
    await expect(page.getByText('their sessions have ended')).toBeVisible();
    await expect(row).toContainText('Disabled');
    await studentPage.goto('/userprofile');
    await expect(studentPage.getByRole('heading', { level: 1 })).toHaveText('Sign in');
    await signInThroughForm(studentPage, student);
    await expect(studentPage.getByText('This account is disabled')).toBeVisible();

    await row.getByRole('button', { name: 'Re-enable Katherine Johnson' }).click();
    await page
      .getByRole('dialog', { name: 'Re-enable Katherine Johnson’s account?' })
      .getByRole('button', { name: 'Re-enable account' })
      .click();
    await expect(row).toContainText('Active');

    // Their own account: the refusal is said plainly, and nothing changes.
    await searchFor(page, E2E_LIBRARIAN.email);
    const me = page.getByRole('row', { name: /Dana Okafor/ });
    await expect(me).toContainText('(you)');
    await me.getByRole('button', { name: 'Disable Dana Okafor' }).click();
    const self = page.getByRole('alertdialog', { name: 'Disable Dana Okafor’s account?' });
    await self.getByRole('button', { name: 'Disable account' }).click();
    await expect(self.getByRole('alert')).toHaveText(
      'You cannot disable your own account: ask another librarian.',
    );
    await page.screenshot({ path: testInfo.outputPath('desk-people-refusal-1280.png') });
    await self.getByRole('button', { name: 'Cancel' }).click();
    await expect(me).toContainText('Active');
    await studentContext.close();
  });

  test('a faculty sign-up outside the trusted domain acts as a student until approved', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const facultyContext = await browser.newContext({ baseURL });
    const facultyPage = await facultyContext.newPage();
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const professor = newPerson({
      firstName: 'Ada',
      lastName: 'Aardvark',
      role: 'faculty',
      email: `ada.${stamp}@elsewhere.example`,
    });
    await registerViaApi(facultyPage.request, baseURL!, professor);
    // The sign-up answered 'student': the student home opens, faculty screens do not.
    await facultyPage.goto('/userprofile');
    await expect(facultyPage.getByRole('heading', { level: 1 })).toContainText('Ada');
    // And it says why: the request waits for the library.
    await expect(facultyPage.getByText(/waiting for a librarian’s approval/)).toBeVisible();
    await expectNoAxeViolations(facultyPage);
    await facultyPage.screenshot({
      path: testInfo.outputPath('student-home-waiting-1280.png'),
      fullPage: false,
    });
    await facultyPage.goto('/requests');
    await expect(facultyPage.getByRole('heading', { level: 1 })).toHaveText(
      'This page is not available to your account',
    );

    await signInAsLibrarian(page);
    await page.goto('/desk/people');
    // Waiting sign-ups come first.
    const first = page.getByRole('row').nth(1);
    await expect(first).toContainText('Asks to be faculty');
    await searchFor(page, professor.email);
    const row = page.getByRole('row', { name: /Ada Aardvark/ });
    await expect(row).toContainText('Asks to be faculty');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('desk-people-pending-1280.png') });
    await row.getByRole('button', { name: 'Approve Ada Aardvark as faculty' }).click();
    await page
      .getByRole('dialog', { name: 'Approve Ada Aardvark as faculty?' })
      .getByRole('button', { name: 'Approve as faculty' })
      .click();
    await expect(page.getByText('Ada Aardvark is now faculty.')).toBeVisible();
    await expect(row).not.toContainText('Asks to be faculty');
    await facultyPage.goto('/requests');
    await expect(facultyPage.getByRole('heading', { level: 1 })).toHaveText('Resource requests');
    await facultyContext.close();
  });

  test('reads well at 390 px', async ({ page, request, baseURL }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const person = newPerson({ firstName: 'Mary', lastName: 'Jackson' });
    await registerViaApi(request, baseURL!, person);
    await signInAsLibrarian(page);
    await page.goto(`/desk/people?q=${encodeURIComponent(person.email)}`);
    const row = page.getByRole('row', { name: /Mary Jackson/ });
    await expect(row).toContainText(person.email);
    await expect(row.getByRole('button', { name: 'Disable Mary Jackson' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('desk-people-390.png'), fullPage: true });
    await page.goto('/desk/people');
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath('desk-people-all-390.png') });
  });
});
