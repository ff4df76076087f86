import { describe, expect, it } from 'vitest';
import {
  bibtexEntry,
  citationKey,
  escapeBibtex,
  fileNameOf,
  risEntry,
  risName,
  type CitedItem,
} from './citation.ts';
import { escapeMarkdown, notesMarkdown } from './notes-markdown.ts';

const BOOK: CitedItem = {
  id: '7d0f7e4c-0000-4000-8000-000000000001',
  kind: 'book',
  title: 'Frankenstein; or, The Modern Prometheus',
  authors: ['Mary Wollstonecraft Shelley'],
  year: 1818,
  isbn: '9780486282114',
  language: 'en',
};

const PAPER: CitedItem = {
  id: '7d0f7e4c-0000-4000-8000-000000000002',
  kind: 'paper',
  title: 'Attention is all you need_v2 {draft}',
  authors: ['Ashish Vaswani', 'Noam Shazeer'],
  year: 2017,
  arxiv_id: '1706.03762',
};

describe('citations', () => {
  it('writes a book as @book with its ISBN', () => {
    expect(bibtexEntry(BOOK)).toBe(
      [
        '@book{shelley1818frankenstein,',
        '  author = {Mary Wollstonecraft Shelley},',
        '  title = {Frankenstein; or, The Modern Prometheus},',
        '  year = {1818},',
        '  isbn = {9780486282114},',
        '  language = {en}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes an arXiv paper as @misc with its eprint, escaping what BibTeX reads', () => {
    const entry = bibtexEntry(PAPER);
    expect(entry).toMatch(/^@misc\{vaswani2017attention,\n/);
    expect(entry).toContain('  author = {Ashish Vaswani and Noam Shazeer},');
    expect(entry).toContain('  title = {Attention is all you need\\_v2 \\{draft\\}},');
    expect(entry).toContain('  eprint = {1706.03762},\n  archivePrefix = {arXiv},');
    expect(entry).toContain('  url = {https://arxiv.org/abs/1706.03762}');
    expect(bibtexEntry({ ...PAPER, arxiv_id: null, doi: '10.1/x' })).toMatch(/^@article\{/);
    expect(escapeBibtex('50% & $5 #1 ~ ^ \\')).toBe(
      '50\\% \\& \\$5 \\#1 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}',
    );
  });

  it('writes a course material as @misc from its institute, with its link', () => {
    const course: CitedItem = {
      id: '7d0f7e4c-0000-4000-8000-000000000003',
      kind: 'course',
      title: 'Linear Algebra Notes',
      authors: [],
      year: null,
      institution: 'Campus University',
      drive_link: 'https://drive.google.com/file/d/abc/view',
    };
    expect(bibtexEntry(course)).toBe(
      '@misc{linear,\n  title = {Linear Algebra Notes},\n  howpublished = {Campus University},\n  url = {https://drive.google.com/file/d/abc/view}\n}\n',
    );
    expect(risEntry(course)).toBe(
      'TY  - GEN\r\nTI  - Linear Algebra Notes\r\nPB  - Campus University\r\nUR  - https://drive.google.com/file/d/abc/view\r\nER  -\r\n',
    );
  });

  it('writes RIS records with family names first, one line per field', () => {
    expect(risEntry({ ...PAPER, title: 'Attention\nis all' })).toBe(
      [
        'TY  - UNPB',
        'AU  - Vaswani, Ashish',
        'AU  - Shazeer, Noam',
        'TI  - Attention is all',
        'PY  - 2017',
        'UR  - https://arxiv.org/abs/1706.03762',
        'ER  -',
        '',
      ].join('\r\n'),
    );
    expect(risEntry(BOOK)).toContain('TY  - BOOK\r\nAU  - Shelley, Mary Wollstonecraft\r\n');
    expect(risName('Shelley, Mary')).toBe('Shelley, Mary');
    expect(risName('Homer')).toBe('Homer');
    expect(citationKey({ ...BOOK, authors: ['Charlotte Brontë'], title: 'Jane Eyre' })).toBe(
      'bronte1818jane',
    );
  });

  it('makes file names from titles', () => {
    expect(fileNameOf('Frankenstein; or, The Modern Prometheus')).toBe(
      'frankenstein-or-the-modern-prometheus',
    );
    expect(fileNameOf('Éléments de géométrie')).toBe('elements-de-geometrie');
    expect(fileNameOf('東京', 'notes')).toBe('notes');
  });
});

describe('notes as Markdown', () => {
  it('escapes what Markdown would read as markup or HTML', () => {
    expect(escapeMarkdown('**bold** _it_ <b>x</b> [link](y) `code`')).toBe(
      '\\*\\*bold\\*\\* \\_it\\_ \\<b\\>x\\</b\\> \\[link\\](y) \\`code\\`',
    );
    expect(escapeMarkdown('# title')).toBe('\\# title');
    expect(escapeMarkdown('- item')).toBe('\\- item');
    expect(escapeMarkdown('1. first')).toBe('1\\. first');
    expect(escapeMarkdown('> quoted')).toBe('\\> quoted');
  });

  it('lists bookmarks and highlights page by page, quotes with pages and notes below', () => {
    const markdown = notesMarkdown({
      item: BOOK,
      bookmarks: [{ page: 9 }, { page: 2 }],
      highlights: [
        { page: 9, start_offset: 40, quote: 'second', note: '' },
        {
          page: 9,
          start_offset: 3,
          quote: 'first line\nsecond line',
          note: 'Mine.\n\nTwo paragraphs.',
        },
      ],
      libraryName: 'Digi Library',
    });
    expect(markdown).toBe(
      [
        '# Frankenstein; or, The Modern Prometheus',
        'Mary Wollstonecraft Shelley. *Frankenstein; or, The Modern Prometheus*. 1818. Digi Library.',
        'Bookmark (p. 2)',
        'Bookmark (p. 9)',
        '> first line\n> second line (p. 9)',
        'Mine.\n\nTwo paragraphs.',
        '> second (p. 9)',
      ].join('\n\n') + '\n',
    );
    expect(
      notesMarkdown({ item: PAPER, bookmarks: [], highlights: [], libraryName: 'Digi Library' }),
    ).toContain('Ashish Vaswani and Noam Shazeer. *Attention is all you need\\_v2 {draft}*. 2017.');
  });
});
