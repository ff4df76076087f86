import type { Browser, Page } from '@playwright/test';
import { newPerson, registerViaApi, waitForMail, type Person } from './accounts.ts';
import { expect, expectNoAxeViolations, test, expectNoSidewaysScroll } from './fixtures.ts';

/** A new person signed in on a page of their own browser context. */
async function signedIn(browser: Browser, baseURL: string, person: Person): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await registerViaApi(page.request, baseURL, person);
  return page;
}

test.describe('resource requests', () => {
  test('a student files a request and sees its status change after a faculty member accepts it', async ({
    page,
    browser,
    baseURL,
  }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    const title = `Quantum Error Correction ${Date.now()}`;
    await page.goto('/resourse-req');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Request a resource');
    await expect(page.getByLabel('Name')).toHaveValue('Grace Hopper');
    await expect(page.getByLabel('Institution')).toHaveValue('Campus University');
    await expect(page.getByLabel('Resource type')).toHaveValue('other');
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Resource type').selectOption('book');
    await page.getByRole('button', { name: 'Submit request' }).click();
    await expect(page.getByText('Successfully Submitted')).toBeVisible();
    await expectNoAxeViolations(page);

    // Someone else typing the same title is offered the open request to support instead.
    const classmate = await signedIn(browser, baseURL!, newPerson());
    await classmate.goto('/resource-request');
    await classmate.getByLabel('Title').fill(title.slice(0, 24));
    const similar = classmate.getByRole('region', { name: 'Similar open requests' });
    await expect(similar.getByText(title, { exact: true })).toBeVisible();
    await similar.getByRole('button', { name: /Support this request/ }).click();
    await expect(similar.getByText('You support this')).toBeVisible();

    const faculty = await signedIn(browser, baseURL!, newPerson({ role: 'faculty' }));
    await faculty.goto('/requests');
    const row = faculty.getByRole('row').filter({ hasText: title });
    await expect(row).toContainText('No description');
    await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();
    await row.getByRole('button', { name: /^Accept/ }).click();
    await expect(row).toContainText('Accepted');
    await expectNoAxeViolations(faculty);

    await page.goto('/userprofile');
    const mine = page.getByRole('region', { name: 'My requests' });
    await expect(mine.getByRole('listitem').filter({ hasText: title })).toContainText('Accepted');
  });
});

test.describe('reservations', () => {
  test('a student reserves, sees it in their list, gets the mail, and cancels', async ({
    page,
    baseURL,
  }) => {
    const person = newPerson();
    await registerViaApi(page.request, baseURL!, person);
    await page.goto('/offline-book-service');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Offline Book Service');
    await expectNoAxeViolations(page);

    // The picker finds a book by its words; an unavailable book cannot go on.
    const find = page.getByLabel('Find a book');
    await find.fill('christmas carol');
    await find.press('Enter');
    await expect(
      page.getByRole('status').filter({ hasText: /match(es)? “christmas carol”/ }),
    ).toBeVisible();
    await expect(page.getByRole('radio', { name: 'A Christmas Carol' })).toBeDisabled();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Please select an available book to continue.',
    );

    await find.fill('pride prejudice austen');
    await find.press('Enter');
    await page.getByRole('radio', { name: 'Pride and Prejudice' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Choose Date & Time' })).toBeVisible();
    await expect(
      page.getByText('A reservation is held for 24 hours from the selected time.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please select a book and time slot');
    await expectNoAxeViolations(page);

    // Back returns to step 1 and keeps the choice; tomorrow's first slot is always open.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { name: 'Select a Book' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    const dates = page.getByRole('group', { name: 'Date' }).getByRole('radio');
    await expect(dates).toHaveCount(7);
    await dates.nth(1).check();
    await page.getByRole('radio', { name: '9:00-9:30 AM' }).check();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: 'Reservation successful!' })).toBeVisible();
    const id = (await page.getByText(/^RES-\d+$/).textContent())!;
    await expectNoAxeViolations(page);

    const mail = await waitForMail(person.email, { subject: new RegExp(`^Reservation ${id}:`) });
    expect(mail.text).toContain(`Reservation: ${id}`);
    expect(mail.attachments.map((attachment) => attachment.filename)).toContain(`${id}.ics`);

    const list = page.getByRole('region', { name: 'Your reservations' });
    const item = list.getByRole('listitem').filter({ hasText: id });
    await expect(item).toContainText('Active');
    page.once('dialog', (dialog) => void dialog.accept());
    await item.getByRole('button', { name: /Cancel/ }).click();
    await expect(item).toContainText('Cancelled');

    await page.getByRole('button', { name: 'Reserve Another Book' }).click();
    await expect(page.getByRole('heading', { name: 'Select a Book' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Pride and Prejudice' })).not.toBeChecked();
  });

  test('a student joins the waiting list of a book whose copies are all out, sees their place, and leaves', async ({
    page,
    baseURL,
  }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto('/offline-book-service');
    const find = page.getByLabel('Find a book');
    await find.fill('christmas carol');
    await find.press('Enter');
    await expect(page.getByRole('radio', { name: 'A Christmas Carol' })).toBeDisabled();
    await page.getByRole('button', { name: 'Join the waiting list for A Christmas Carol' }).click();
    const place =
      /You are (next|number \d+) on the waiting list; a copy should come up in about \d+ days\./;
    await expect(page.getByRole('status').filter({ hasText: place })).toBeVisible();
    const lists = page.getByRole('region', { name: 'Your waiting lists' });
    const entry = lists.getByRole('listitem').filter({ hasText: 'A Christmas Carol' });
    await expect(entry).toContainText('Waiting');
    await expect(entry).toContainText(place);
    await expectNoAxeViolations(page);
    await entry.getByRole('button', { name: /Leave the list/ }).click();
    await expect(entry).toContainText('Left the list');
  });

  for (const path of ['/offline-book-service', '/resourse-req', '/requests']) {
    test(`${path} fits a 390 px screen and axe finds nothing`, async ({ page, baseURL }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await registerViaApi(page.request, baseURL!, newPerson({ role: 'faculty' }));
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  }
});
