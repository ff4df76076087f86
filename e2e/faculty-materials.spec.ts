import type { Page, TestInfo } from '@playwright/test';
import { newPerson, registerViaApi } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** A full-page picture at `width`, kept with the test's output to look at. */
async function shoot(page: Page, testInfo: TestInfo, name: string, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
}

test('faculty edit, unpublish and publish again their own course material from their home', async ({
  browser,
  baseURL,
}, testInfo) => {
  const stamp = Date.now();
  const title = `Group Theory Notes ${stamp}`;
  const edited = `Group Theory, Week 1 ${stamp}`;

  const facultyContext = await browser.newContext({ baseURL });
  const faculty = await facultyContext.newPage();
  await registerViaApi(faculty.request, baseURL!, newPerson({ role: 'faculty' }));
  await faculty.goto('/publish');
  await faculty.getByLabel('Title').fill(title);
  await faculty.getByLabel('Author').fill('Prof. Emmy Noether');
  await faculty.getByLabel('Publication date').fill('2026-09-14');
  await faculty.getByLabel('Drive link').fill('https://drive.google.com/file/d/group-theory/view');
  await faculty.getByLabel('Institute name').fill('Campus University');
  await faculty.getByLabel('Genre').fill('science');
  await faculty.getByRole('button', { name: 'Publish' }).click();
  await expect(faculty.getByRole('status')).toContainText('Book published successfully!');

  const studentContext = await browser.newContext({ baseURL });
  const student = await studentContext.newPage();
  await registerViaApi(student.request, baseURL!, newPerson());
  const courseList = async () => {
    await student.goto('/userprofile/openlibrary?tab=courses');
    await expect(student.getByRole('tabpanel')).toBeVisible();
    return student.getByRole('listitem');
  };

  // The home lists it.
  await faculty.goto('/facultyprofile');
  const section = faculty.getByRole('region', { name: 'Your course materials' });
  const row = section.getByRole('listitem').filter({ hasText: title });
  await expect(row).toContainText('Publication date: Sep 14, 2026');
  await expectNoAxeViolations(faculty);

  // Edit, by keyboard: the form opens prefilled and takes the focus; Back closes it.
  await row.getByRole('button', { name: 'Edit' }).focus();
  await faculty.keyboard.press('Enter');
  await expect(faculty).toHaveURL(/\?edit=/);
  await expect(faculty.getByRole('heading', { name: `Edit “${title}”` })).toBeFocused();
  await expect(faculty.getByLabel('Title')).toHaveValue(title);
  await faculty.goBack();
  await expect(faculty).not.toHaveURL(/\?edit=/);
  await expect(faculty.getByLabel('Title')).toHaveCount(0);
  await faculty.goForward();
  await expect(faculty.getByLabel('Title')).toHaveValue(title);

  await faculty.getByLabel('Title').fill('');
  await faculty.getByRole('button', { name: 'Save changes' }).click();
  await expect(faculty.getByText('Title is required')).toBeVisible();
  await expectNoAxeViolations(faculty);
  await faculty.getByLabel('Title').fill(edited);
  await faculty.getByRole('button', { name: 'Save changes' }).click();
  await expect(faculty.getByRole('status').filter({ hasText: 'Changes saved' })).toContainText(
    edited,
  );
  const editedRow = section.getByRole('listitem').filter({ hasText: edited });
  await expect(editedRow.getByRole('heading', { level: 3 })).toHaveText(edited);
  await shoot(faculty, testInfo, 'faculty-materials-edit', 1280);
  await shoot(faculty, testInfo, 'faculty-materials-edit', 390);
  await faculty.setViewportSize({ width: 1280, height: 900 });
  await faculty.getByRole('button', { name: 'Done' }).click();
  await expect(faculty).not.toHaveURL(/\?edit=/);

  await expect((await courseList()).filter({ hasText: edited })).toHaveCount(1);

  // Unpublish, after the question: gone from the student's course list.
  await editedRow.getByRole('button', { name: 'Unpublish' }).click();
  const dialog = faculty.getByRole('dialog', { name: `Unpublish “${edited}”?` });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoAxeViolations(faculty);
  await dialog.getByRole('button', { name: 'Unpublish' }).click();
  await expect(faculty.getByRole('status').filter({ hasText: 'is unpublished' })).toBeVisible();
  await expect(editedRow).toContainText('Unpublished');
  await expectNoAxeViolations(faculty);
  await shoot(faculty, testInfo, 'faculty-materials-unpublished', 1280);
  await shoot(faculty, testInfo, 'faculty-materials-unpublished', 390);
  await faculty.setViewportSize({ width: 1280, height: 900 });

  const list = await courseList();
  await expect(list.first()).toBeVisible();
  await expect(list.filter({ hasText: edited })).toHaveCount(0);

  // Publish again: back in the list.
  await editedRow.getByRole('button', { name: 'Publish again' }).click();
  await expect(faculty.getByRole('status').filter({ hasText: 'published again' })).toBeVisible();
  await expect(editedRow).not.toContainText('Unpublished');
  await expect((await courseList()).filter({ hasText: edited })).toHaveCount(1);

  await facultyContext.close();
  await studentContext.close();
});
