import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CatalogueImport } from '#contract/http/imports.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { ImportSection, importSummary, kindOfFile } from './import-section.tsx';

const entry = (overrides: Partial<CatalogueImport>): CatalogueImport => ({
  id: '6f1c2b7e-0000-4000-8000-000000000001',
  kind: 'marc',
  fileName: 'koha-export.mrc',
  sizeBytes: 1_000,
  state: 'done',
  rowsRead: 1_200,
  rowsExpected: 1_200,
  report: {
    counts: { rows: 1_200, inserted: 1_000, updated: 150, unchanged: 48, skipped: 2 },
    copies: { inserted: 1_800, updated: 3, unchanged: 0 },
    badRows: [
      { line: 7, reason: 'no title (245 $a)' },
      { line: 90, reason: 'not a MARC record' },
    ],
    moreBadRows: 0,
    elapsedMs: 900,
  },
  error: null,
  createdByName: 'Dana Okafor',
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: '2026-11-25T10:00:01.000Z',
  ...overrides,
});

describe('import from a file', () => {
  it('tells MARC from holdings by the file name', () => {
    expect(kindOfFile('copies.CSV')).toBe('holdings');
    expect(kindOfFile('export.mrc')).toBe('marc');
    expect(kindOfFile('records.xml')).toBe('marc');
  });

  it('sums up an import in words, by its state', () => {
    expect(importSummary(entry({}))).toBe(
      '1,200 records read: 1,000 added, 150 updated, 48 unchanged, 2 skipped. Copies: 1,800 added, 3 changed.',
    );
    expect(importSummary(entry({ state: 'running', rowsRead: 300, report: null }))).toBe(
      '300 of about 1,200 records read…',
    );
    expect(importSummary(entry({ state: 'queued', report: null }))).toBe('Waiting for its turn…');
    expect(
      importSummary(entry({ state: 'failed', report: null, error: 'No such file: The file' })),
    ).toBe('No such file: The file');
    expect(
      importSummary(
        entry({
          kind: 'holdings',
          report: {
            counts: { rows: 3, inserted: 2, updated: 1, unchanged: 0, skipped: 0 },
            badRows: [],
            moreBadRows: 0,
            elapsedMs: 5,
          },
        }),
      ),
    ).toBe('3 lines read: 2 copies added, 1 moved or changed.');
  });

  it('lists the latest imports with why rows were skipped, and asks for a file first', async () => {
    mockApi({
      'GET /imports': () => ({
        body: {
          imports: [
            entry({ id: '6f1c2b7e-0000-4000-8000-000000000002', state: 'running', report: null }),
            entry({}),
          ],
        },
      }),
    });
    renderScreen(<ImportSection />, '/desk/catalogue', testUser({ role: 'librarian' }));
    const list = await screen.findByRole('list', { name: 'Latest imports' });
    const items = within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list);
    expect(items[0]!.textContent).toContain('Importing');
    expect(
      within(items[0]!).getByRole('progressbar', { name: /Import of koha-export/ }),
    ).toBeTruthy();
    expect(items[1]!.textContent).toContain('Imported');
    expect(within(items[1]!).getByText('2 skipped, and why')).toBeTruthy();
    expect(items[1]!.textContent).toContain('Record 7: no title (245 $a)');

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Choose a file to import')).toBeTruthy();
    expect(screen.getByLabelText('File to import').getAttribute('aria-invalid')).toBe('true');

    const csv = new File(['isbn,barcode,location\n'], 'copies.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('File to import'), { target: { files: [csv] } });
    await waitFor(() =>
      expect(
        (screen.getByLabelText('Holdings (copies to attach)') as HTMLInputElement).checked,
      ).toBe(true),
    );
    expect(screen.getByText(/A CSV with the columns isbn/)).toBeTruthy();
  });
});
