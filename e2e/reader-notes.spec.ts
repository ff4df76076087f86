import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ROUTES } from '#contract/routes.ts';
import { newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

const FILE_ID = '1ReaderNotesE2eAbCdEfGhIjKlMnOp';
const DRIVE_LINK = `https://drive.google.com/file/d/${FILE_ID}/view`;
const SHOTS = '/tmp/reader-shots';
const readerAt = (link: string) => `${ROUTES.reader}?link=${encodeURIComponent(link)}`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The page's address ends with the reader's address for `link`. */
const atReaderFor = (link: string) => new RegExp(`${escapeRegExp(readerAt(link))}$`);

/** Adds a note through the form with the keyboard alone: Tab from the page box, Enter to add. */
async function addNoteByKeyboard(page: Page, pageNumber: string, text: string) {
  await page.getByLabel('Page', { exact: true }).focus();
  await page.keyboard.type(pageNumber);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Add to your notes')).toBeFocused();
  await page.keyboard.type(text);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Add note' })).toBeFocused();
  await page.keyboard.press('Enter');
}

/** The names of what Tab reaches, in order, from the screen's heading up to `last`. */
async function tabStops(page: Page, last: string): Promise<string[]> {
  await page.getByRole('heading', { level: 1, name: 'Reader' }).click();
  const stops: string[] = [];
  for (let index = 0; index < 80 && stops.at(-1) !== last; index += 1) {
    await page.keyboard.press('Tab');
    stops.push(
      await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (!active) return '';
        const labelled = active.id
          ? document.querySelector(`label[for="${CSS.escape(active.id)}"]`)?.textContent
          : null;
        return (labelled ?? active.textContent ?? '').trim();
      }),
    );
  }
  return stops;
}

test.describe('reader notes', () => {
  test('a student keeps notes by page, exports them and imports them in another browser', async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    const person = newPerson();
    await registerViaApi(page.request, baseURL!, person);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(readerAt(DRIVE_LINK));
    await expect(page.locator('iframe[title="Document preview"]')).toHaveAttribute(
      'src',
      `https://drive.google.com/file/d/${FILE_ID}/preview`,
    );
    await expect(page.getByText('Your notes live only in this browser.')).toBeVisible();

    await addNoteByKeyboard(
      page,
      '12',
      'Eigenvalues are the roots of the characteristic polynomial.',
    );
    // The page typed at the start of the note, as students write it on paper.
    await addNoteByKeyboard(page, '', 'p. 3: Definition of a vector space.');
    const notes = page.getByRole('list', { name: `Notes on ${FILE_ID}` }).getByRole('listitem');
    await expect(notes).toHaveCount(2);
    await expect(notes.nth(0)).toContainText('p. 3');
    await expect(notes.nth(0)).toContainText('Definition of a vector space.');
    await expect(notes.nth(1)).toContainText('p. 12');

    await page.getByLabel('Document name').fill('Linear Algebra, week 3');
    await page.getByLabel('Document name').press('Enter');
    const documents = page.getByRole('region', { name: 'Documents with notes' });
    await expect(documents.getByRole('link', { name: 'Linear Algebra, week 3' })).toBeVisible();
    await expect(documents).toContainText('2 notes · last changed');

    // Every control is reached by Tab.
    const stops = await tabStops(page, 'Import notes from an export');
    for (const name of [
      'Google Drive link',
      'Open',
      'Document name',
      'Edit note 1 (page 3)',
      'Delete note 1 (page 3)',
      'Page',
      'Add to your notes',
      'Add note',
      'Export these notes (Markdown)',
      'Linear Algebra, week 3',
      'Export all notes (Markdown)',
      'Import notes from an export',
    ])
      expect(stops, `Tab reaches ${name}`).toContain(name);

    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    mkdirSync(SHOTS, { recursive: true });
    // From the top, so the sticky top bar is where a person sees it.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/reader-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/reader-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export these notes (Markdown)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('reader-notes-linear-algebra-week-3.md');
    const saved = testInfo.outputPath('notes.md');
    await download.saveAs(saved);
    const markdown = readFileSync(saved, 'utf8');
    expect(markdown).toContain('# Notes on Linear Algebra, week 3');
    expect(markdown).toContain(`Google Drive: <${DRIVE_LINK}>`);
    expect(markdown.indexOf('### Page 3')).toBeLessThan(markdown.indexOf('### Page 12'));

    // Another browser: the same student, none of these notes until the file is imported.
    const otherContext = await browser.newContext({ baseURL });
    const other = await otherContext.newPage();
    await other.goto(ROUTES.signIn);
    await signInThroughForm(other, person);
    await other.waitForURL((url) => url.pathname !== ROUTES.signIn);
    await other.goto(ROUTES.reader);
    const otherDocuments = other.getByRole('region', { name: 'Documents with notes' });
    await expect(otherDocuments).toContainText('No notes in this browser yet.');
    const importBox = other.getByLabel('Import notes from an export');
    await importBox.setInputFiles({
      name: 'essay.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# My essay\n\nNot notes.'),
    });
    await expect(otherDocuments.getByRole('alert')).toContainText(
      'This file is not a notes export from the Digi Library reader.',
    );
    await importBox.setInputFiles(saved);
    await expect(otherDocuments.getByRole('status')).toHaveText(
      'Imported 2 notes into 1 document.',
    );
    await importBox.setInputFiles(saved);
    await expect(otherDocuments.getByRole('status')).toHaveText(
      'Nothing new: the 2 notes in this file are already here.',
    );
    await otherDocuments.getByRole('link', { name: 'Linear Algebra, week 3' }).click();
    await expect(other).toHaveURL(atReaderFor(DRIVE_LINK));
    const imported = other.getByRole('list', { name: 'Notes on Linear Algebra, week 3' });
    await expect(imported.getByRole('listitem')).toHaveCount(2);
    await expect(imported).toContainText(
      'Eigenvalues are the roots of the characteristic polynomial.',
    );
    await expectNoAxeViolations(other);
    await otherContext.close();
  });

  test('a link that is not a Drive file is explained and offered in a new tab', async ({
    page,
    baseURL,
  }) => {
    await registerViaApi(page.request, baseURL!, newPerson());
    await page.goto(ROUTES.reader);
    await page.getByLabel('Google Drive link').fill('https://example.com/paper.pdf');
    await page.getByLabel('Google Drive link').press('Enter');
    await expect(page).toHaveURL(atReaderFor('https://example.com/paper.pdf'));
    await expect(page.getByRole('alert')).toContainText(
      'This is not a Google Drive file link. The reader shows only Drive files',
    );
    const newTab = page.getByRole('link', { name: 'Open example.com in a new tab' });
    await expect(newTab).toHaveAttribute('href', 'https://example.com/paper.pdf');
    await expect(newTab).toHaveAttribute('target', '_blank');
    await expect(newTab).toHaveAttribute('rel', /noopener/);
    await expect(page.locator('iframe')).toHaveCount(0);
    await expectNoAxeViolations(page);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/not-drive-1280.png`, fullPage: true });

    // The back button returns to the empty reader; a script address is never offered.
    await page.goBack();
    await expect(
      page.getByText('Enter a Google Drive PDF link above to view the document.'),
    ).toBeVisible();
    await page.goto(readerAt('javascript:alert(1)'));
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: /in a new tab/ })).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/not-drive-390.png`, fullPage: true });
  });
});
