import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Copy, ItemCopies } from '#contract/http/copies.ts';
import { type ApiCall, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { CopiesSection } from './copies-section.tsx';

const ITEM_ID = '6d2f6a52-1b1e-4c55-9a57-1f0c6a1d0001';

const copy = (barcode: string, overrides: Partial<Copy> = {}): Copy => ({
  id: `copy-${barcode}`,
  barcode,
  location: 'Main hall, shelf B2',
  status: 'available',
  note: '',
  updatedAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

/** A fake server holding the item's copies; POST adds one unless its barcode is taken. */
function library(initial: Copy[]) {
  const copies = [...initial];
  const answer = (): { body: ItemCopies } => ({
    body: {
      itemId: ITEM_ID,
      total: copies.length,
      available: copies.filter((one) => one.status === 'available').length,
      locations: [],
      copies,
    },
  });
  const calls = mockApi({
    [`GET /items/${ITEM_ID}/copies`]: answer,
    [`GET /items/${ITEM_ID}`]: () => ({ status: 404, body: { success: false, message: 'gone' } }),
    [`GET /items/${ITEM_ID}/history`]: () => ({ body: { changes: [] } }),
    [`POST /items/${ITEM_ID}/copies`]: (call: ApiCall) => {
      const body = call.body as Copy;
      if (copies.some((one) => one.barcode.toUpperCase() === body.barcode.toUpperCase())) {
        return {
          status: 409,
          body: {
            success: false,
            message: `Barcode ${body.barcode} is already on another copy. Check the label, or edit that copy instead.`,
          },
        };
      }
      const added = copy(body.barcode, body);
      copies.push(added);
      return { status: 201, body: added };
    },
    'PATCH /copies/DL-0001': (call: ApiCall) => {
      Object.assign(copies[0]!, call.body);
      return { body: copies[0] };
    },
  });
  renderScreen(
    <CopiesSection itemId={ITEM_ID} />,
    `/desk/catalogue/${ITEM_ID}`,
    testUser({ role: 'librarian' }),
  );
  return calls;
}

const barcodeBox = () => screen.getByLabelText('Barcode') as HTMLInputElement;
const posts = (calls: ApiCall[]) =>
  calls.filter((call) => call.method === 'POST').map((call) => call.body);

describe('adding copies with a barcode scanner', () => {
  it('takes a scan ending in Enter, then empties the box and keeps the focus for the next', async () => {
    const user = userEvent.setup();
    const calls = library([copy('DL-0001')]);
    expect(await screen.findByRole('rowheader', { name: 'DL-0001' })).toBeTruthy();

    await user.type(screen.getByLabelText('Location'), 'Annex, shelf C1');
    await user.click(barcodeBox());
    // The scanner "types" the code and presses Enter.
    await user.keyboard('DL-0002{Enter}');
    expect(
      await screen.findByText(
        'Added copy DL-0002 at Annex, shelf C1. Scan or type the next barcode.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(barcodeBox().value).toBe(''));
    expect(document.activeElement).toBe(barcodeBox());
    expect(await screen.findByRole('rowheader', { name: 'DL-0002' })).toBeTruthy();

    // The next scan goes straight in; location, status and note stay for it.
    await user.keyboard('DL-0003{Enter}');
    expect(
      await screen.findByText(
        'Added copy DL-0003 at Annex, shelf C1. Scan or type the next barcode.',
      ),
    ).toBeTruthy();
    expect(posts(calls)).toEqual([
      { barcode: 'DL-0002', location: 'Annex, shelf C1', status: 'available', note: '' },
      { barcode: 'DL-0003', location: 'Annex, shelf C1', status: 'available', note: '' },
    ]);
  });

  it('says a taken barcode is taken, and the next scan replaces it', async () => {
    const user = userEvent.setup();
    const calls = library([copy('DL-0001')]);
    await screen.findByRole('rowheader', { name: 'DL-0001' });

    await user.click(barcodeBox());
    await user.keyboard('dl-0001{Enter}');
    const message =
      'Barcode dl-0001 is already on another copy. Check the label, or edit that copy instead.';
    expect(await screen.findByText(message, { selector: 'span' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(`Copy dl-0001 was not added: ${message}`);
    expect(barcodeBox().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(barcodeBox());
    // Selected, so the next scan takes its place instead of being added to its end.
    expect([barcodeBox().selectionStart, barcodeBox().selectionEnd]).toEqual([0, 7]);

    await user.keyboard('DL-0009{Enter}');
    expect(
      await screen.findByText('Added copy DL-0009. Scan or type the next barcode.'),
    ).toBeTruthy();
    expect(posts(calls).map((body) => (body as Copy).barcode)).toEqual(['dl-0001', 'DL-0009']);
    expect(screen.queryByText(message, { selector: 'span' })).toBeNull();
  });

  it('checks the barcode before sending it', async () => {
    const user = userEvent.setup();
    const calls = library([]);
    expect(await screen.findByText('No copies yet: add the first one below.')).toBeTruthy();
    await user.click(barcodeBox());
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Please scan or type a barcode')).toBeTruthy();
    await user.keyboard('DL 7{Enter}');
    expect(
      await screen.findByText(
        'Barcodes hold letters, digits, dots, dashes, underscores and slashes only',
      ),
    ).toBeTruthy();
    expect(document.activeElement).toBe(barcodeBox());
    expect(posts(calls)).toEqual([]);
  });
});

describe('editing a copy in its row', () => {
  it('saves a changed status with Enter and hands the focus back to Edit', async () => {
    const user = userEvent.setup();
    const calls = library([copy('DL-0001')]);
    const edit = await screen.findByRole('button', { name: 'Edit copy DL-0001' });
    await user.click(edit);
    const location = screen.getByLabelText('Location of copy DL-0001');
    expect(document.activeElement).toBe(location);
    await user.selectOptions(screen.getByLabelText('Status of copy DL-0001'), 'in_repair');
    await user.type(screen.getByLabelText('Note on copy DL-0001'), 'Spine loose{Enter}');

    expect(await screen.findByText('Copy DL-0001 saved: status and note changed.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      status: 'in_repair',
      note: 'Spine loose',
    });
    const row = (await screen.findByRole('rowheader', { name: 'DL-0001' })).closest('tr')!;
    expect(within(row).getByText('In repair')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: 'Edit copy DL-0001' }),
      ),
    );
  });

  it('Escape leaves the row as it was', async () => {
    const user = userEvent.setup();
    const calls = library([copy('DL-0001')]);
    await user.click(await screen.findByRole('button', { name: 'Edit copy DL-0001' }));
    fireEvent.change(screen.getByLabelText('Location of copy DL-0001'), {
      target: { value: 'Somewhere else' },
    });
    await user.keyboard('{Escape}');
    expect(screen.queryByLabelText('Location of copy DL-0001')).toBeNull();
    expect(screen.getByText('Main hall, shelf B2')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });
});
