import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HealthResponse } from '#contract/http/health.ts';
import type { CatalogueImport } from '#contract/http/imports.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { DeskCataloguePage } from './desk-catalogue-page.tsx';
import { ImportSection, preparingImportedItems } from './import-section.tsx';
import { searchByMeaningText } from './search-by-meaning-line.tsx';

const health = (searchByMeaning: HealthResponse['searchByMeaning']): HealthResponse => ({
  status: 'ok',
  database: 'pglite',
  searchByMeaning,
});

const preparing = health({ available: true, embedded: 8_123, total: 16_279 });

const imported: CatalogueImport = {
  id: '6f1c2b7e-0000-4000-8000-000000000001',
  kind: 'marc',
  fileName: 'koha-export.mrc',
  sizeBytes: 1_000,
  state: 'done',
  rowsRead: 10,
  rowsExpected: 10,
  report: {
    counts: { rows: 10, inserted: 8, updated: 2, unchanged: 0, skipped: 0 },
    badRows: [],
    moreBadRows: 0,
    elapsedMs: 90,
  },
  error: null,
  createdByName: 'Dana Okafor',
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: '2026-11-25T10:00:01.000Z',
};

describe('search by meaning on the librarians’ catalogue', () => {
  it('says in words how many items are ready, or why it is off', () => {
    expect(searchByMeaningText(preparing)).toBe(
      'Search by meaning: 8,123 of 16,279 items ready; the rest are being prepared.',
    );
    expect(searchByMeaningText(health({ available: true, embedded: 40, total: 40 }))).toBe(
      'Search by meaning: all 40 items are ready.',
    );
    expect(
      searchByMeaningText(
        health({ available: false, reason: 'The pgvector extension is not installed.' }),
      ),
    ).toBe('Search by meaning is off: the pgvector extension is not installed.');
    // An older server says nothing of it, and neither does the screen.
    expect(searchByMeaningText(health(undefined))).toBeUndefined();
    expect(searchByMeaningText(health({ available: true }))).toBeUndefined();
  });

  it('shows the line on the catalogue screen', async () => {
    mockApi({ 'GET /health': () => ({ body: preparing }) });
    renderScreen(<DeskCataloguePage />, '/desk/catalogue', testUser({ role: 'librarian' }));
    expect(
      await screen.findByText(
        'Search by meaning: 8,123 of 16,279 items ready; the rest are being prepared.',
      ),
    ).toBeTruthy();
  });

  it('says in an import’s report that its items are being prepared, only while they are', async () => {
    expect(preparingImportedItems(imported, preparing)).toBe(true);
    expect(
      preparingImportedItems(imported, health({ available: true, embedded: 5, total: 5 })),
    ).toBe(false);
    expect(preparingImportedItems(imported, health({ available: false, reason: 'Off.' }))).toBe(
      false,
    );
    expect(preparingImportedItems({ ...imported, kind: 'holdings' }, preparing)).toBe(false);

    mockApi({
      'GET /imports': () => ({ body: { imports: [imported] } }),
      'GET /health': () => ({ body: preparing }),
    });
    renderScreen(<ImportSection />, '/desk/catalogue', testUser({ role: 'librarian' }));
    const list = await screen.findByRole('list', { name: 'Latest imports' });
    expect(
      await within(list).findByText(/The new and changed items are being prepared for search/),
    ).toBeTruthy();
  });
});
