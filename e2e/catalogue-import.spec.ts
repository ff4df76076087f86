import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { E2E_LIBRARIAN, newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/** One MARCXML record of our own: a book with one Koha 952 copy. */
function marcRecord(control: string, title: string, author: string, barcode: string): string {
  return `  <record>
    <leader>00000nam a2200000 i 4500</leader>
    <controlfield tag="001">${control}</controlfield>
    <datafield tag="100" ind1="1" ind2=" "><subfield code="a">${author}</subfield></datafield>
    <datafield tag="245" ind1="1" ind2="0"><subfield code="a">${title}</subfield></datafield>
    <datafield tag="264" ind1=" " ind2="1"><subfield code="c">2024.</subfield></datafield>
    <datafield tag="650" ind1=" " ind2="0"><subfield code="a">Cartography.</subfield></datafield>
    <datafield tag="952" ind1=" " ind2=" ">
      <subfield code="a">MAIN</subfield>
      <subfield code="o">GA 105 .L3</subfield>
      <subfield code="p">${barcode}</subfield>
    </datafield>
  </record>`;
}

/** Chooses `file` on the catalogue screen, imports it, and waits for its report. */
async function importFile(page: Page, file: string, kind: string, summary: RegExp) {
  await page.getByLabel('File to import').setInputFiles(file);
  await expect(page.getByLabel(kind)).toBeChecked();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const latest = page.getByRole('list', { name: 'Latest imports' });
  const entry = latest
    .getByRole('listitem')
    .filter({ hasText: path.basename(file) })
    .first();
  await expect(entry).toContainText('Imported', { timeout: 30_000 });
  await expect(entry).toContainText(summary);
  await expect(page.getByRole('status').filter({ hasText: path.basename(file) })).toBeVisible();
}

test('a librarian imports MARC and holdings files, keeps the catalogue, promotes a colleague; a student reserves the imported book', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const stamp = `${Date.now()}`.slice(-7);
  const atlas = `The Lanternmaker’s Atlas ${stamp}`;
  const tidepools = `A Field Guide to Tidepools ${stamp}`;
  const folder = await mkdtemp(path.join(tmpdir(), 'digi-e2e-import-'));
  const marcFile = path.join(folder, `acquisitions-${stamp}.xml`);
  await writeFile(
    marcFile,
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<collection xmlns="http://www.loc.gov/MARC21/slim">',
      marcRecord(`e2e-${stamp}-1`, atlas, 'Okonkwo, Ife,', `LA${stamp}`),
      marcRecord(`e2e-${stamp}-2`, tidepools, 'Marsh, Rowan,', `TP${stamp}`),
      '</collection>',
    ].join('\n'),
  );

  // A colleague, signed up as faculty, to be made a librarian.
  const colleague = newPerson({ firstName: 'Imani', lastName: `Reyes${stamp}`, role: 'faculty' });
  await registerViaApi(page.request, baseURL!, colleague);
  await page.context().clearCookies();

  await page.goto('/signin');
  await signInThroughForm(page, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(page).toHaveURL(/\/facultyprofile$/);
  await page.goto('/desk/catalogue');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue');

  // The MARC file: two books, each with a copy from its 952 field.
  await importFile(page, marcFile, 'MARC records', /2 records read: 2 added/);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath('catalogue-import-1280.png'), fullPage: true });

  // Find the atlas, and read its id from its screen for the holdings file.
  await page.getByLabel('Search the catalogue').fill(`lanternmaker atlas ${stamp}`);
  await page.getByLabel('Search the catalogue').press('Enter');
  await page.getByRole('link', { name: atlas, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(atlas);
  const atlasId = page.url().split('/').pop()!;
  await expect(page.getByRole('rowheader', { name: `LA${stamp}` })).toBeVisible();

  // A holdings CSV adds a second copy in the annex.
  const holdingsFile = path.join(folder, `holdings-${stamp}.csv`);
  await writeFile(holdingsFile, `item_id,barcode,location\n${atlasId},LB${stamp},Annex A2\n`);
  await page.goto('/desk/catalogue');
  await importFile(page, holdingsFile, 'Holdings (copies to attach)', /1 line read: 1 copy added/);

  // Back on the atlas, a scanner adds a third copy.
  await page.goto(`/desk/catalogue/${atlasId}`);
  await expect(page.getByRole('rowheader', { name: `LB${stamp}` })).toBeVisible();
  const scanned = `LC${stamp}`;
  await page.getByRole('textbox', { name: 'Location', exact: true }).fill('Main, GA 105 .L3');
  await page.getByRole('textbox', { name: 'Barcode' }).click();
  await page.keyboard.type(scanned);
  await page.keyboard.press('Enter');
  await expect(
    page.getByText(`Added copy ${scanned} at Main, GA 105 .L3. Scan or type the next barcode.`),
  ).toBeVisible();
  await expect(page.getByText('3 copies in the library, 3 free to reserve now.')).toBeVisible();

  // The tidepools book is withdrawn.
  await page.goto(`/desk/catalogue?q=${encodeURIComponent(`tidepools ${stamp}`)}`);
  await page.getByRole('link', { name: tidepools, exact: true }).click();
  await page.getByRole('button', { name: 'Withdraw this item' }).click();
  await page
    .getByRole('dialog', { name: `Withdraw “${tidepools}”?` })
    .getByRole('button', { name: 'Withdraw', exact: true })
    .click();
  await expect(page.getByText(`“${tidepools}” is withdrawn`)).toBeVisible();

  // The colleague becomes a librarian.
  await page.goto('/desk/people');
  await page.getByLabel('Name, e-mail or student ID').fill(colleague.email);
  await page.getByLabel('Name, e-mail or student ID').press('Enter');
  const name = `Imani Reyes${stamp}`;
  const row = page.getByRole('row', { name: new RegExp(name) });
  await row.getByRole('button', { name: `Change role of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Change the role of ${name}` });
  await dialog.getByLabel('New role').selectOption('librarian');
  await dialog.getByRole('button', { name: 'Change role' }).click();
  await expect(row.getByRole('cell', { name: 'Librarian', exact: true })).toBeVisible();

  // A student reserves the imported atlas; the withdrawn book is not offered.
  const studentContext = await browser.newContext({ baseURL });
  const student = await studentContext.newPage();
  await registerViaApi(student.request, baseURL!, newPerson());
  await student.goto('/offline-book-service');
  const find = student.getByLabel('Find a book');
  await find.fill(stamp);
  await find.press('Enter');
  await expect(student.getByText('1 book matches', { exact: false })).toBeVisible();
  await expect(student.getByRole('radio', { name: tidepools })).toHaveCount(0);
  await student.getByRole('radio', { name: atlas }).check();
  await student.getByRole('button', { name: 'Continue' }).click();
  await student.getByRole('group', { name: 'Date' }).getByRole('radio').nth(1).check();
  await student.getByRole('radio', { name: '9:00-9:30 AM' }).check();
  await student.getByRole('button', { name: 'Confirm' }).click();
  await expect(student.getByRole('heading', { name: 'Reservation successful!' })).toBeVisible();
  await expect(student.getByText(atlas).first()).toBeVisible();
  await studentContext.close();
});
