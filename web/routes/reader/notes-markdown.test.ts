import { describe, expect, it } from 'vitest';
import {
  EXPORT_MARK,
  exportFileName,
  exportMarkdown,
  mergeImport,
  NOT_AN_EXPORT,
  parseExport,
} from './notes-markdown.ts';
import { addNote, emptyStore, type DocumentRef, type NotesStore } from './reader-notes.ts';

const FILE = 'A'.repeat(28);
const OTHER = 'B'.repeat(30);
const AT = new Date('2026-11-26T07:00:00Z');
const DOC: DocumentRef = {
  fileId: FILE,
  title: 'Linear *Algebra* [Week 3]',
  link: `https://drive.google.com/open?id=${FILE}`,
};

function sample(): NotesStore {
  let store = emptyStore();
  store = addNote(store, DOC, { page: 12, text: 'second on 12' }, '2026-01-02T00:00:00Z', 'b');
  store = addNote(
    store,
    DOC,
    { page: null, text: 'general\n\n# not a heading\n- nor an item' },
    '2026-01-01T00:00:00Z',
    'c',
  );
  store = addNote(store, DOC, { page: 3, text: 'on three' }, '2026-01-03T00:00:00Z', 'd');
  store = addNote(store, DOC, { page: 12, text: 'first on 12' }, '2026-01-01T00:00:00Z', 'e');
  const other = { fileId: OTHER, title: 'Other', link: '' };
  return addNote(store, other, { page: 1, text: 'x' }, '2026-01-01T00:00:00Z', 'f');
}
const counter = () => {
  let next = 0;
  return () => `new-${(next += 1)}`;
};

describe('Markdown export', () => {
  it('heads one document with its name and link, its notes by page', () => {
    const markdown = exportMarkdown([sample().documents[FILE]!], AT);
    expect(markdown).toBe(
      [
        EXPORT_MARK,
        '',
        '# Notes on Linear \\*Algebra\\* \\[Week 3\\]',
        '',
        'Exported from the Digi Library reader on 2026-11-26. To bring these notes into another browser, import this file on its Reader screen.',
        '',
        '## Linear \\*Algebra\\* \\[Week 3\\]',
        '',
        `Google Drive: <https://drive.google.com/file/d/${FILE}/view>`,
        '',
        `<!-- drive file: ${FILE} -->`,
        '',
        '### Page 3',
        '',
        '- on three',
        '',
        '### Page 12',
        '',
        '- first on 12',
        '- second on 12',
        '',
        '### Without a page',
        '',
        '- general',
        '',
        '  # not a heading',
        '  - nor an item',
        '',
      ].join('\n'),
    );
  });

  it('puts every document under one heading, and names the file', () => {
    const store = sample();
    const all = Object.values(store.documents);
    const markdown = exportMarkdown(all, AT);
    expect(markdown).toContain('\n# Reader notes\n');
    expect(markdown).toContain('\n## Other\n');
    expect(exportFileName(all, AT)).toBe('reader-notes-2026-11-26.md');
    expect(exportFileName([store.documents[FILE]!], AT)).toBe(
      'reader-notes-linear-algebra-week-3.md',
    );
  });
});

describe('reading an export back', () => {
  it('gives back every document and note as exported', () => {
    const store = sample();
    const parsed = parseExport(exportMarkdown(Object.values(store.documents), AT));
    expect(parsed).toEqual({
      ok: true,
      documents: [
        {
          fileId: FILE,
          title: 'Linear *Algebra* [Week 3]',
          link: `https://drive.google.com/file/d/${FILE}/view`,
          notes: [
            { page: 3, text: 'on three' },
            { page: 12, text: 'first on 12' },
            { page: 12, text: 'second on 12' },
            { page: null, text: 'general\n\n# not a heading\n- nor an item' },
          ],
        },
        {
          fileId: OTHER,
          title: 'Other',
          link: `https://drive.google.com/file/d/${OTHER}/view`,
          notes: [{ page: 1, text: 'x' }],
        },
      ],
    });
  });

  it('reads a file saved with Windows line ends and a byte-order mark', () => {
    const markdown = exportMarkdown([sample().documents[OTHER]!], AT).replace(/\n/g, '\r\n');
    expect(parseExport(`\uFEFF${markdown}`)).toMatchObject({ ok: true });
  });

  it('says plainly when a file is not an export, or holds no notes', () => {
    expect(parseExport('# My essay\n\nSome text')).toEqual({ ok: false, error: NOT_AN_EXPORT });
    expect(parseExport('')).toEqual({ ok: false, error: NOT_AN_EXPORT });
    expect(parseExport('\u0000\u0001binary')).toEqual({ ok: false, error: NOT_AN_EXPORT });
    expect(parseExport(`${EXPORT_MARK}\n\n# Reader notes\n`)).toEqual({
      ok: false,
      error: 'This export holds no notes: there is nothing to import.',
    });
  });
});

describe('merging an import', () => {
  it('adds what is new and skips what is already here, keeping the local name', () => {
    const exported = sample();
    const parsed = parseExport(exportMarkdown(Object.values(exported.documents), AT));
    if (!parsed.ok) throw new Error(parsed.error);

    const elsewhere = addNote(
      emptyStore(),
      { ...DOC, title: 'My algebra' },
      { page: 3, text: 'on three' },
      '2026-05-01T00:00:00Z',
      'z',
    );
    const first = mergeImport(elsewhere, parsed.documents, '2026-06-01T00:00:00Z', counter());
    expect(first).toMatchObject({ added: 4, alreadyHere: 1, documents: 2 });
    expect(first.store.documents[FILE]!.title).toBe('My algebra');
    expect(first.store.documents[FILE]!.notes).toHaveLength(4);
    expect(first.store.documents[OTHER]).toMatchObject({ title: 'Other', notes: [{ text: 'x' }] });

    const again = mergeImport(first.store, parsed.documents, '2026-06-02T00:00:00Z', counter());
    expect(again).toMatchObject({ added: 0, alreadyHere: 5, documents: 0 });
    expect(again.store).toEqual(first.store);
  });
});
