import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_LIBRARIAN, newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

interface Book {
  _id: string;
  title: string;
  freeCopies: number;
}

/** Two books with copies to spare, far down the list, so other specs' reservations leave them be. */
async function twoSpareBooks(request: APIRequestContext): Promise<[Book, Book]> {
  const answer = await request.get('/api/users/reservation-books?availableOnly=true&pageSize=60');
  const books = ((await answer.json()).payload as Book[]).filter((book) => book.freeCopies >= 2);
  const [first, second] = books.slice(-2);
  if (!first || !second) throw new Error('the e2e catalogue has no two books with spare copies');
  return [first, second];
}

/** A barcode of one of the book's copies on the shelf, as the librarian's screen lists them. */
async function shelvedBarcode(request: APIRequestContext, bookId: string): Promise<string> {
  const answer = await request.get(`/api/items/${bookId}/copies`);
  expect(answer.ok(), await answer.text()).toBe(true);
  const body = (await answer.json()) as { copies?: { barcode: string; status: string }[] };
  const copy = body.copies?.find((each) => each.status === 'available');
  if (!copy) throw new Error(`no copy of ${bookId} is on the shelf`);
  return copy.barcode;
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

test.describe('loans at the desk', () => {
  test('the desk checks reserved copies out by barcode, renews and takes one back; the student sees and renews their loan', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const person = newPerson({ firstName: 'Ada', lastName: 'Lovelace' });
    const student = await (await browser.newContext({ baseURL })).newPage();
    await registerViaApi(student.request, baseURL!, person);
    const days = await (await student.request.get('/api/users/reservation-days')).json();
    const tomorrow = days.days[1].date as string;
    const [first, second] = await twoSpareBooks(student.request);
    const reservationIds: string[] = [];
    for (const book of [first, second]) {
      const made = await student.request.post('/api/users/reservation', {
        headers: { origin: baseURL! },
        data: { book: { id: book._id }, reservation: { date: tomorrow, timeSlot: '2:00-2:30 PM' } },
      });
      expect(made.ok(), await made.text()).toBe(true);
      reservationIds.push((await made.json()).reservation.reservationId as string);
    }

    await page.goto('/signin');
    await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
    await expect(page.getByRole('link', { name: 'Library desk' })).toBeVisible();
    const firstBarcode = await shelvedBarcode(page.request, first._id);
    const secondBarcode = await shelvedBarcode(page.request, second._id);
    await page.goto(`/desk?date=${tomorrow}`);

    // A pickup: its own "Check out" opens a barcode box for that reservation.
    const slot = page.getByRole('region', { name: '2:00-2:30 PM' });
    const pickup = slot.getByRole('listitem').filter({ hasText: reservationIds[0]! });
    await expect(pickup).toContainText('Ada Lovelace');
    await pickup.getByRole('button', { name: /^Check out/ }).click();
    await expect(pickup.getByLabel('Barcode of the copy')).toBeFocused();
    await page.keyboard.type(`${firstBarcode}\n`);
    await expect(
      page.getByText(new RegExp(`^“${first.title}” checked out to Ada Lovelace, due `)),
    ).toBeVisible();

    // The panel: a scan (the code, then Enter) lends the copy to the book's one reservation.
    const panel = page.getByRole('region', { name: 'Check in or out' });
    const barcode = panel.getByLabel('Barcode', { exact: true });
    await barcode.click();
    await page.keyboard.type(`${secondBarcode}\n`);
    await expect(
      panel
        .getByRole('status')
        .filter({ hasText: `“${second.title}” checked out to Ada Lovelace` }),
    ).toBeVisible();
    await expect(barcode).toHaveValue('');
    await expect(barcode).toBeFocused();

    // Both are on loan; the filter finds them by the borrower's e-mail.
    const loans = page.getByRole('region', { name: 'On loan' });
    await loans.getByLabel('Find a loan').fill(person.email);
    await expect(
      loans.getByText('2 copies on loan matching the search, none overdue.'),
    ).toBeVisible();
    const firstLoan = loans.getByRole('listitem').filter({ hasText: first.title });
    await firstLoan.getByRole('button', { name: /^Renew/ }).click();
    await expect(firstLoan.getByText(/renewed for Ada Lovelace: now due /)).toBeVisible();
    await expect(firstLoan).toContainText('Renewed 1 time · 1 renewal left');
    await looksRight(page);

    // A return by scan.
    await barcode.fill(secondBarcode);
    await panel.getByRole('button', { name: 'Return', exact: true }).click();
    await expect(
      panel
        .getByRole('status')
        .filter({ hasText: `“${second.title}” (copy ${secondBarcode}) returned by Ada Lovelace` }),
    ).toBeVisible();
    await expect(
      loans.getByText('1 copy on loan matching the search, none overdue.'),
    ).toBeVisible();

    // Everything is recorded: who did what to which copy.
    const activity = page.getByRole('region', { name: 'Recent desk activity' });
    await expect(
      activity.getByText(`checked in “${second.title}” from Ada Lovelace`, { exact: false }),
    ).toBeVisible();
    await expect(
      activity.getByText(`renewed Ada Lovelace’s loan of “${first.title}”`, { exact: false }),
    ).toBeVisible();

    // The student's home: the loan, when it is due, and their own last renewal.
    await student.goto('/userprofile');
    const mine = student.getByRole('region', { name: 'My loans' });
    const loan = mine.getByRole('listitem').filter({ hasText: first.title });
    await expect(loan).toContainText('Renewed 1 time · 1 renewal left');
    await loan.getByRole('button', { name: /^Renew/ }).click();
    await expect(loan.getByRole('status')).toHaveText(/^Renewed: now due /);
    await expect(loan).toContainText('Cannot be renewed');
    await expect(mine.getByText('Returned loans (1)')).toBeVisible();
    await looksRight(student);
  });
});
