import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import nodeConsole from 'node:console';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../../api/session.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { legacyNotesKey, notesStoreKey } from './notes-storage.ts';
import { EXPORT_MARK } from './notes-markdown.ts';
import { ReaderPage } from './reader-page.tsx';

const FILE = 'A'.repeat(28);
const LINK = `https://drive.google.com/file/d/${FILE}/view`;
const USER = testUser({ id: 'user-1' });

function renderReader(entry: string | { pathname: string; state: unknown }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, USER);
  const router = createMemoryRouter([{ path: '/reader', element: <ReaderPage /> }], {
    initialEntries: [entry],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const atLink = (link: string) => `/reader?link=${encodeURIComponent(link)}`;
const noteList = () => screen.getByRole('list', { name: /^Notes on / });
const noteTexts = () =>
  within(noteList())
    .getAllByRole('listitem')
    .map((item) => item.querySelector('p')?.textContent);

beforeEach(() => {
  localStorage.clear();
  // happy-dom loads no frame and says so on Node's console: expected here.
  vi.spyOn(nodeConsole, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('notes in the reader', () => {
  it('adds notes with pages, edits and deletes them, and sends nothing to the library', async () => {
    const user = userEvent.setup();
    const calls = mockApi({});
    renderReader(atLink(LINK));
    expect(screen.getByTitle('Document preview').getAttribute('src')).toBe(
      `https://drive.google.com/file/d/${FILE}/preview`,
    );
    expect(screen.getByText('Your notes live only in this browser.')).toBeTruthy();

    await user.type(screen.getByLabelText('Page', { selector: 'input' }), '12');
    await user.type(screen.getByLabelText('Add to your notes'), 'eigenvalues matter');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    await user.type(screen.getByLabelText('Add to your notes'), 'p. 4: the definition');
    await user.keyboard('{Control>}{Enter}{/Control}');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(screen.getByRole('alert').textContent).toBe('Write the note before adding it.');
    expect(noteTexts()).toEqual(['the definition', 'eigenvalues matter']);
    expect(within(noteList()).getByText('p. 4')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit note 2 (page 12)' }));
    const text = screen.getByLabelText('Note text');
    expect(document.activeElement).toBe(text);
    await user.clear(text);
    await user.type(text, 'eigenvalues really matter');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(noteTexts()).toEqual(['the definition', 'eigenvalues really matter']);
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Edit note 2 (page 12)' }),
    );

    await user.click(screen.getByRole('button', { name: 'Delete note 1 (page 4)' }));
    expect(noteTexts()).toEqual(['eigenvalues really matter']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Undo' }));
    await user.keyboard('{Enter}');
    expect(noteTexts()).toEqual(['the definition', 'eigenvalues really matter']);
    expect(document.activeElement).toBe(noteList());

    const documents = screen.getByRole('region', { name: 'Documents with notes' });
    const listed = within(documents).getByRole('link', { name: FILE });
    expect(listed.getAttribute('href')).toBe(atLink(LINK));
    expect(within(documents).getByText(/^2 notes · last changed/)).toBeTruthy();

    const kept = JSON.parse(localStorage.getItem(notesStoreKey(USER.id))!);
    expect(kept.documents[FILE].notes).toHaveLength(2);
    expect(calls).toEqual([]);
  });

  it('names a course material’s document by its title, and lets the student rename it', async () => {
    const user = userEvent.setup();
    mockApi({ [`GET /items/item-1/related`]: () => ({ body: { byMeaning: false, items: [] } }) });
    renderReader({
      pathname: '/reader',
      state: { driveLink: LINK, itemId: 'item-1', title: 'Linear Algebra Notes' },
    });
    const name = screen.getByLabelText('Document name');
    expect((name as HTMLInputElement).value).toBe('Linear Algebra Notes');
    await user.type(screen.getByLabelText('Add to your notes'), 'first');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    const documents = screen.getByRole('region', { name: 'Documents with notes' });
    expect(within(documents).getByRole('link', { name: 'Linear Algebra Notes' })).toBeTruthy();

    await user.clear(name);
    await user.type(name, 'Week 3{Enter}');
    expect(within(documents).getByRole('link', { name: 'Week 3' })).toBeTruthy();
  });

  it('shows the seed’s free-text note as a note, and keeps what is being typed', async () => {
    const user = userEvent.setup();
    mockApi({});
    localStorage.setItem(legacyNotesKey(USER.id, FILE), 'Chapter 2: eigenvalues matter.');
    renderReader(atLink(LINK));
    expect(noteTexts()).toEqual(['Chapter 2: eigenvalues matter.']);
    expect(within(noteList()).getByText('No page')).toBeTruthy();
    expect(localStorage.getItem(legacyNotesKey(USER.id, FILE))).toBeNull();

    await user.type(screen.getByLabelText('Add to your notes'), 'half a thought');
    cleanup();
    renderReader(atLink(LINK));
    expect((screen.getByLabelText('Add to your notes') as HTMLTextAreaElement).value).toBe(
      'half a thought',
    );
  });

  it('opens a typed link in the address, so it can be bookmarked', async () => {
    const user = userEvent.setup();
    mockApi({});
    const router = renderReader('/reader');
    expect(screen.getByText('Open a Google Drive document to take notes on it.')).toBeTruthy();
    await user.type(screen.getByLabelText('Google Drive link'), LINK);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(router.state.location.search).toBe(`?link=${encodeURIComponent(LINK)}`);
    expect(screen.getByTitle('Document preview')).toBeTruthy();
  });
});

describe('a link the reader cannot show', () => {
  it('says so and offers the web page in a new tab', () => {
    mockApi({});
    renderReader(atLink('https://example.com/paper.pdf'));
    expect(screen.getByRole('alert').textContent).toContain(
      'This is not a Google Drive file link. The reader shows only Drive files',
    );
    const link = screen.getByRole('link', { name: 'Open example.com in a new tab' });
    expect(link.getAttribute('href')).toBe('https://example.com/paper.pdf');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('never offers a script or data address', () => {
    mockApi({});
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      '/desk',
    ]) {
      cleanup();
      renderReader(atLink(bad));
      expect(screen.getByRole('alert')).toBeTruthy();
      expect(screen.queryByRole('link', { name: /in a new tab/ })).toBeNull();
    }
  });
});

describe('export and import', () => {
  it('downloads the notes as Markdown', async () => {
    const user = userEvent.setup();
    mockApi({});
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:notes';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderReader(atLink(LINK));
    await user.type(screen.getByLabelText('Add to your notes'), 'p. 3: a note');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    await user.click(screen.getByRole('button', { name: 'Export these notes (Markdown)' }));
    expect(clicked).toHaveBeenCalledOnce();
    const markdown = await blobs[0]!.text();
    expect(markdown.startsWith(EXPORT_MARK)).toBe(true);
    expect(markdown).toContain(`# Notes on ${FILE}`);
    expect(markdown).toContain('### Page 3\n\n- a note\n');
    await user.click(screen.getByRole('button', { name: 'Export all notes (Markdown)' }));
    expect(clicked).toHaveBeenCalledTimes(2);
  });

  it('imports an export once, and says plainly when a file is not one', async () => {
    const user = userEvent.setup();
    mockApi({});
    renderReader(atLink(LINK));
    const input = screen.getByLabelText('Import notes from an export');
    await user.upload(input, new File(['# My essay'], 'essay.md', { type: 'text/markdown' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This file is not a notes export from the Digi Library reader.',
    );

    const exported = [
      EXPORT_MARK,
      '',
      '## Algebra',
      '',
      `<!-- drive file: ${FILE} -->`,
      '',
      '### Page 2',
      '',
      '- from the other browser',
      '',
    ].join('\n');
    const file = () => new File([exported], 'notes.md', { type: 'text/markdown' });
    await user.upload(input, file());
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Imported 1 note into 1 document.'),
    );
    expect(noteTexts()).toEqual(['from the other browser']);
    expect(screen.getByRole('link', { name: 'Algebra' })).toBeTruthy();

    await user.upload(input, file());
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Nothing new: the 1 note in this file is already here.',
      ),
    );
    expect(noteTexts()).toEqual(['from the other browser']);
  });
});
