import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ItemDetail } from '#contract/http/catalogue.ts';
import type { ManagedItem } from '#contract/http/items.ts';
import { type ApiRoutes, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { ItemForm } from './item-form.tsx';
import { joinList, splitList } from './item-form-values.ts';

const ITEM: ItemDetail = {
  id: '6d2f6a52-1b1e-4c55-9a57-1f0c6a1d0001',
  type: 'book',
  title: 'Frankenstein',
  authors: ['Mary Shelley'],
  year: 1818,
  subjects: ['gothic fiction', 'science fiction'],
  isbn: '9780141439471',
  hasContent: false,
  pageCount: 0,
  copies: 2,
};

const managed = (overrides: Partial<ManagedItem> = {}): ManagedItem => ({
  ...ITEM,
  updatedAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

const librarian = testUser({ role: 'librarian' });
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) =>
  fireEvent.change(field(label), { target: { value } });

function renderForm(routes: ApiRoutes, item?: ItemDetail, onCreated = vi.fn()) {
  const calls = mockApi(routes);
  renderScreen(<ItemForm item={item} onCreated={onCreated} />, '/desk/catalogue/x', librarian);
  return { calls, onCreated };
}

describe('lists typed in one box', () => {
  it('splits on commas, or on lines when there are several lines', () => {
    expect(splitList(' Ada Lovelace, , Charles Babbage ')).toEqual([
      'Ada Lovelace',
      'Charles Babbage',
    ]);
    expect(splitList('Tolkien, J. R. R.\nLewis, C. S.\n')).toEqual([
      'Tolkien, J. R. R.',
      'Lewis, C. S.',
    ]);
    expect(splitList(joinList(['Tolkien, J. R. R.', 'Lewis, C. S.']))).toEqual([
      'Tolkien, J. R. R.',
      'Lewis, C. S.',
    ]);
    expect(joinList(['Ada', 'Charles'])).toBe('Ada, Charles');
  });
});

describe('the new item form', () => {
  it('names each bad field beside it and sends nothing', async () => {
    const { calls } = renderForm({});
    type('Year', 'nineteen');
    type('Cover URL', 'javascript:alert(1)');
    fireEvent.click(screen.getByRole('button', { name: 'Add to the catalogue' }));

    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Year must be a number')).toBeTruthy();
    expect(screen.getByText('Cover URL must be an http:// or https:// URL')).toBeTruthy();
    expect(field('Title').getAttribute('aria-invalid')).toBe('true');
    // The message is tied to its field, so a screen reader reads it with the field.
    const described = field('Year').getAttribute('aria-describedby') ?? '';
    expect(described.split(' ').map((id) => document.getElementById(id)?.textContent)).toContain(
      'Year must be a number',
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Not added: check the fields Title, Year and Cover URL.',
    );
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    // The summary follows the fields as they are put right.
    type('Title', 'Notes on the Analytical Engine');
    type('Year', '1843');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Not added: check the field Cover URL.'),
    );
    expect(screen.queryByText('Title is required')).toBeNull();
  });

  it('shows the course fields for a course material and sends the lists split', async () => {
    const created = managed({ id: 'new-1', type: 'course', title: 'Signals notes' });
    const { calls, onCreated } = renderForm({
      'POST /items': () => ({ status: 201, body: created }),
    });
    expect(screen.queryByLabelText('Institution')).toBeNull();
    type('Type', 'course');
    type('Title', 'Signals notes');
    type('Authors', 'Ada Lovelace, Charles Babbage');
    type('Subjects', 'signals\nsystems');
    type('Institution', 'Analytical University');
    type('Publication date', '2026-02-28');
    type('Drive link', 'drive.google.com/file/d/1abc');
    fireEvent.click(screen.getByRole('button', { name: 'Add to the catalogue' }));
    expect(await screen.findByText('Drive link must be an http:// or https:// URL')).toBeTruthy();

    type('Drive link', 'https://drive.google.com/file/d/1abc/view');
    fireEvent.click(screen.getByRole('button', { name: 'Add to the catalogue' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      type: 'course',
      title: 'Signals notes',
      authors: ['Ada Lovelace', 'Charles Babbage'],
      subjects: ['signals', 'systems'],
      year: null,
      isbn: null,
      description: null,
      coverUrl: null,
      url: null,
      institution: 'Analytical University',
      genre: null,
      publishedDate: '2026-02-28',
      driveLink: 'https://drive.google.com/file/d/1abc/view',
    });
  });
});

describe('editing an item', () => {
  it('sends only the changed fields and says what was saved', async () => {
    const { calls } = renderForm(
      { [`PATCH /items/${ITEM.id}`]: () => ({ body: managed({ year: 1831 }) }) },
      ITEM,
    );
    expect(field('Title').value).toBe('Frankenstein');
    expect(field('Subjects').value).toBe('gothic fiction, science fiction');

    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Nothing to save: no field has changed.')).toBeTruthy();
    expect(calls).toHaveLength(0);

    type('Year', '1831');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved. Changed: Year.')).toBeTruthy();
    expect(calls.map((call) => [call.method, call.body])).toEqual([['PATCH', { year: 1831 }]]);
  });

  it('clears an optional field left blank', async () => {
    const { calls } = renderForm(
      { [`PATCH /items/${ITEM.id}`]: () => ({ body: managed({ isbn: undefined }) }) },
      ITEM,
    );
    type('ISBN', '  ');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved. Changed: ISBN.')).toBeTruthy();
    expect(calls[0]?.body).toEqual({ isbn: null });
  });

  it("puts the server's field errors and an ISBN conflict on the ISBN field", async () => {
    let answer = 0;
    renderForm(
      {
        [`PATCH /items/${ITEM.id}`]: () =>
          ++answer === 1
            ? {
                status: 400,
                body: {
                  success: false,
                  message: 'Some fields are missing or invalid.',
                  errors: [
                    { path: 'isbn', message: 'This is not a valid ISBN: check the digits.' },
                  ],
                },
              }
            : {
                status: 409,
                body: {
                  success: false,
                  message: '“Dracula” already has ISBN 9780141439846. Edit that item instead.',
                },
              },
      },
      ITEM,
    );
    type('ISBN', '0-14-143984-1');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('This is not a valid ISBN: check the digits.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'Not saved: Some fields are missing or invalid.',
    );
    expect(field('ISBN').getAttribute('aria-invalid')).toBe('true');

    type('ISBN', '0-14-143984-5');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText('“Dracula” already has ISBN 9780141439846. Edit that item instead.', {
        selector: 'span',
      }),
    ).toBeTruthy();
  });

  it('says so when the server cannot be reached', async () => {
    renderForm({ [`PATCH /items/${ITEM.id}`]: () => 'network-error' }, ITEM);
    type('Title', 'Frankenstein; or, The Modern Prometheus');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Not saved: the server could not be reached. Check your connection and try again.',
    );
  });
});
