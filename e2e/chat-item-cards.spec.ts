import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_LIBRARIAN, newPerson, registerViaApi } from './accounts.ts';
import {
  chooseUsername,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  test,
} from './fixtures.ts';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = '/tmp/librarycards-shots';

interface Book {
  _id: string;
  title: string;
  freeCopies: number;
}

/** A book with copies to spare from the middle of the list, away from other specs' picks. */
async function spareBook(request: APIRequestContext): Promise<Book> {
  const answer = await request.get('/api/users/reservation-books?availableOnly=true&pageSize=60');
  const books = ((await answer.json()).payload as Book[]).filter((book) => book.freeCopies >= 2);
  const book = books[Math.floor(books.length / 2)];
  if (!book) throw new Error('the e2e catalogue has no book with spare copies');
  return book;
}

/** At both widths: nothing scrolls sideways, axe finds nothing, and a screenshot to look at. */
async function looksRight(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Issue 26's library in the conversation (decision 045): a student shares a book to a room, its
 * card there says how many copies are free, and when the desk checks a copy out the card changes
 * without a reload; "Discuss this book" opens the book's own room, which shows the book's card.
 */
test('a shared book card follows the desk, and a book has its own room', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const student = newPerson({ firstName: 'Ada' });
  await registerViaApi(page.request, baseURL!, student);
  await page.goto('/userprofile/discussion-forum');
  const username = `Ada ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  await chooseUsername(page, username);
  const room = `Reading group ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Create New Room' }).click();
  await page.getByLabel('Room name').fill(room);
  await page.getByRole('button', { name: 'Create Room' }).click();
  await expect(page.getByText(room).first()).toBeVisible({ timeout: 15_000 });

  // The book's details: "Share to a room", find the room, a comment, share.
  const book = await spareBook(page.request);
  await page.goto(`/userprofile/openlibrary?item=${book._id}`);
  await expect(page.getByRole('heading', { name: book.title, level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Share to a room' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Find a room').fill(room.slice(0, 14));
  await dialog.getByRole('radio', { name: room }).check();
  await dialog.getByLabel('Comment (optional)').fill('Shall we read this one next?');
  await looksRight(page, 'share-dialog');
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog.getByText(`${book.title} was shared to ${room}.`)).toBeVisible();
  await dialog.getByRole('link', { name: 'Open the room' }).click();

  // The card in the room: N of M copies free.
  await expect(page.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
  const card = page.getByRole('article', { name: book.title });
  await expect(card).toBeVisible();
  const line = card.locator('[data-availability]');
  await expect(line).toHaveText(/^\d+ of \d+ copies free/);
  const [, free, total] = /^(\d+) of (\d+)/.exec((await line.textContent()) ?? '')!;
  await expect(card.getByRole('link', { name: `Reserve a copy of ${book.title}` })).toBeVisible();
  await looksRight(page, 'room-card');

  // The desk checks a copy out (the API, as its screen calls it): the card follows, no reload.
  const desk = await (await browser.newContext({ baseURL })).newPage();
  const login = await desk.request.post('/api/users/login', {
    headers: { origin: baseURL! },
    data: { email: E2E_LIBRARIAN.email, password: E2E_LIBRARIAN.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const copies = await desk.request.get(`/api/items/${book._id}/copies`);
  const shelved = ((await copies.json()).copies as { barcode: string; status: string }[]).find(
    (copy) => copy.status === 'available',
  );
  expect(shelved).toBeDefined();
  const lent = await desk.request.post('/api/desk/loans', {
    headers: { origin: baseURL! },
    data: { barcode: shelved!.barcode, email: student.email },
  });
  expect(lent.ok(), await lent.text()).toBe(true);
  const fewer = Number(free) - 1;
  await expect(line).toHaveText(
    fewer === 0 ? `All ${total} copies are out` : `${fewer} of ${total} copies free`,
  );

  // "Discuss this book": the book's own room, named after it, shows its card under the header.
  await page.goto(`/userprofile/openlibrary?item=${book._id}`);
  await page.getByRole('button', { name: 'Discuss this book' }).click();
  await expect(page.getByRole('heading', { name: /^Chat Room: / })).toBeVisible();
  const tied = page.getByRole('region', { name: 'The item this room discusses' });
  await expect(tied.getByRole('article', { name: book.title })).toBeVisible();
  await looksRight(page, 'book-room');
});
