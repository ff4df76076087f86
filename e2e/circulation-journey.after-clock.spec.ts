import type { APIRequestContext, Page } from '@playwright/test';
import {
  E2E_LIBRARIAN,
  newPerson,
  registerViaApi,
  signInThroughForm,
  waitForMail,
} from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/*
 * Issue 21's "done when", tried as a new user would. It moves the server's clock forward
 * (TEST_CLOCK=on, `POST /api/test/clock`), so it runs in its own Playwright project after every
 * other spec has finished (playwright.config.ts).
 */

/** A POST as the page's signed-in person, from the app's own origin (the CSRF guard's rule). */
async function post(request: APIRequestContext, baseURL: string, url: string, data: object) {
  const answer = await request.post(url, { headers: { origin: baseURL }, data });
  expect(answer.ok(), `${url}: ${await answer.text()}`).toBe(true);
  return answer.json();
}

/** At both widths: nothing scrolls sideways and axe finds nothing. */
async function looksRight(page: Page): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a student waits second in line, gets the lapsed offer by bell and e-mail, collects, renews and sees it overdue', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL!;
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `The Journey of ${tag}`;
  const barcode = `JRNY-${tag}`;

  // The desk: a book with one copy, lent to a first reader, so every copy is out.
  await page.goto('/signin');
  await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(page.getByRole('link', { name: 'Library desk' })).toBeVisible();
  const item = await post(page.request, base, '/api/items', {
    type: 'book',
    title,
    authors: ['Iris Journeyman'],
  });
  await post(page.request, base, `/api/items/${item.id}/copies`, {
    barcode,
    location: 'Main library, 1st floor',
  });
  const reader = await (await browser.newContext({ baseURL: base })).newPage();
  const readerPerson = newPerson({ firstName: 'Rhea' });
  await registerViaApi(reader.request, base, readerPerson);
  await post(page.request, base, '/api/desk/loans', { barcode, email: readerPerson.email });

  // Someone joins the waiting list first.
  const first = await (await browser.newContext({ baseURL: base })).newPage();
  await registerViaApi(first.request, base, newPerson({ firstName: 'Felix' }));
  await post(first.request, base, '/api/users/holds', { bookId: item.id });

  // Our student finds the book, sees every copy out, and joins the list: second in line.
  const student = await (await browser.newContext({ baseURL: base })).newPage();
  const person = newPerson({ firstName: 'Nadia', lastName: 'Quinn' });
  await registerViaApi(student.request, base, person);
  await student.goto(`/userprofile/openlibrary?q=${encodeURIComponent(title)}`);
  await student.getByRole('button', { name: `Join the waiting list for ${title}` }).click();
  await expect(
    student.getByText(/^You are number 2 on the waiting list; a copy should come up in about/),
  ).toBeVisible();
  await looksRight(student);

  // The copy comes back: the desk scans it in; it is offered to the first in line.
  await page.goto('/desk');
  const panel = page.getByRole('region', { name: 'Check in or out' });
  await panel.getByLabel('Barcode', { exact: true }).fill(barcode);
  await panel.getByRole('button', { name: 'Return', exact: true }).click();
  await expect(panel.getByRole('status')).toContainText('returned by Rhea');

  // Two days pass: the first offer lapses and passes to our student.
  await post(page.request, base, '/api/test/clock', { hours: 49 });
  await student.goto('/userprofile');
  const bell = student.getByRole('link', { name: /^Notices, 1 unread/ });
  await expect(bell).toBeVisible({ timeout: 15_000 });
  const mail = await waitForMail(person.email, {
    subject: `A copy of “${title}” is ready for you`,
    timeoutMs: 15_000,
  });
  expect(mail.text).toContain(title);
  // One-click unsubscribe (RFC 8058), as mail programs offer it.
  expect(mail.headerLines.map((header) => header.line)).toContain(
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
  );
  await bell.click();
  await expect(student.getByRole('heading', { level: 1, name: 'Notices' })).toBeVisible();
  await looksRight(student);
  await student.getByRole('link', { name: `A copy of “${title}” is ready for you` }).click();

  // The offer opens the reservation at the slots, with the book chosen.
  await expect(student.getByRole('heading', { name: 'Choose Date & Time' })).toBeVisible();
  await student.getByRole('group', { name: 'Date' }).getByRole('radio').nth(1).check();
  await student.getByRole('radio', { name: '9:00-9:30 AM' }).check();
  await student.getByRole('button', { name: 'Confirm' }).click();
  await expect(student.getByRole('heading', { name: 'Reservation successful!' })).toBeVisible();

  // At the desk the copy is scanned out: the book's only pickup is hers.
  await page.goto('/desk');
  await panel.getByLabel('Barcode', { exact: true }).fill(barcode);
  await panel.getByRole('button', { name: 'Check out', exact: true }).click();
  await expect(panel.getByRole('status')).toContainText(
    `“${title}” checked out to Nadia Quinn, due`,
  );
  await looksRight(page);

  // She renews it once from her home.
  await student.goto('/userprofile');
  const loans = student.getByRole('region', { name: 'My loans' });
  const loan = loans.getByRole('listitem').filter({ hasText: title });
  await loan.getByRole('button', { name: /^Renew/ }).click();
  await expect(loan.getByRole('status')).toHaveText(/^Renewed: now due /);
  await expect(loan).toContainText('Renewed 1 time · 1 renewal left');

  // Over six weeks later it is overdue: said plainly on her home and in her notices.
  await post(page.request, base, '/api/test/clock', { hours: 45 * 24 });
  await student.reload();
  await expect(loan.getByText(/^Overdue: it was due /)).toBeVisible();
  await student.goto('/notices');
  await expect(student.getByRole('link', { name: `“${title}” is overdue` })).toBeVisible({
    timeout: 15_000,
  });
  await looksRight(student);
});
