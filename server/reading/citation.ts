/**
 * One catalogue item as a citation: a BibTeX entry, an RIS record (what Zotero, Mendeley and
 * EndNote import) and the one-line reference that heads exported notes. Pure functions of the
 * item's fields, so they are tested without a database.
 */

/** The fields of an item a citation uses. */
export interface CitedItem {
  id: string;
  kind: 'book' | 'paper' | 'course';
  title: string;
  authors: readonly string[];
  year: number | null;
  isbn?: string | null;
  arxiv_id?: string | null;
  doi?: string | null;
  url?: string | null;
  drive_link?: string | null;
  language?: string | null;
  institution?: string | null;
}

/** One line, spaces squeezed: fields of a citation never hold line breaks. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Plain ASCII letters and digits of `text`, lower case ("Brontë" → "bronte"). */
const asciiWord = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();

/** A person's family name: before a comma ("Shelley, Mary"), or the last word. */
function familyName(author: string): string {
  const name = oneLine(author);
  if (name.includes(',')) return name.slice(0, name.indexOf(',')).trim();
  return name.split(' ').at(-1) ?? name;
}

/** A name as RIS wants it, family name first: "Mary Shelley" → "Shelley, Mary". */
export function risName(author: string): string {
  const name = oneLine(author);
  if (name.includes(',') || !name.includes(' ')) return name;
  const family = familyName(name);
  return `${family}, ${name.slice(0, name.length - family.length).trim()}`;
}

/** Characters that mean something to BibTeX (and LaTeX), written so they print as themselves. */
const BIBTEX_SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '%': '\\%',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

/** A field's text for a BibTeX entry: specials escaped, on one line. */
export function escapeBibtex(text: string): string {
  return oneLine(text).replace(/[\\{}$&%#_~^]/g, (char) => BIBTEX_SPECIALS[char]!);
}

/** The entry's key: family name, year and first title word ("shelley1818frankenstein"). */
export function citationKey(item: CitedItem): string {
  const author = asciiWord(familyName(item.authors[0] ?? ''));
  const word =
    oneLine(item.title)
      .split(' ')
      .map(asciiWord)
      .find((each) => each.length > 3 && !['the', 'with', 'from', 'into'].includes(each)) ??
    asciiWord(item.title.split(' ')[0] ?? '');
  const key = `${author}${item.year ?? ''}${word}`;
  return key === '' ? `item${asciiWord(item.id).slice(0, 8)}` : key;
}

/** Where the item can be opened, when it says. */
const linkOf = (item: CitedItem) =>
  item.url ??
  (item.arxiv_id ? `https://arxiv.org/abs/${item.arxiv_id}` : null) ??
  item.drive_link ??
  null;

/** The item as one BibTeX entry: `@book`, a paper as `@misc` with its arXiv eprint or `@article`, a course material as `@misc`. */
export function bibtexEntry(item: CitedItem): string {
  const type =
    item.kind === 'book' ? 'book' : item.kind === 'paper' && !item.arxiv_id ? 'article' : 'misc';
  const fields: [string, string | null | undefined][] = [
    ['author', item.authors.map(oneLine).filter(Boolean).join(' and ')],
    ['title', item.title],
    ['year', item.year === null ? null : String(item.year)],
    ['isbn', item.isbn],
    ['doi', item.doi],
    ...(item.arxiv_id
      ? ([
          ['eprint', item.arxiv_id],
          ['archivePrefix', 'arXiv'],
        ] as [string, string][])
      : []),
    ['howpublished', item.kind === 'course' ? item.institution : null],
    ['url', linkOf(item)],
    ['language', item.language],
  ];
  const lines = fields
    .filter((field): field is [string, string] => typeof field[1] === 'string' && field[1] !== '')
    .map(([name, value]) => `  ${name} = {${escapeBibtex(value)}}`);
  return `@${type}{${citationKey(item)},\n${lines.join(',\n')}\n}\n`;
}

/** The item as one RIS record (CRLF line ends, as the format asks). */
export function risEntry(item: CitedItem): string {
  const type =
    item.kind === 'book'
      ? 'BOOK'
      : item.kind === 'paper'
        ? item.arxiv_id
          ? 'UNPB'
          : 'JOUR'
        : 'GEN';
  const lines: [string, string | null | undefined][] = [
    ['TY', type],
    ...item.authors.map((author): [string, string] => ['AU', risName(author)]),
    ['TI', item.title],
    ['PY', item.year === null ? null : String(item.year)],
    ['SN', item.isbn],
    ['DO', item.doi],
    ['PB', item.kind === 'course' ? item.institution : null],
    ['UR', linkOf(item)],
    ['LA', item.language],
    ['ER', ''],
  ];
  return lines
    .filter(([tag, value]) => tag === 'ER' || (typeof value === 'string' && value.trim() !== ''))
    .map(([tag, value]) => `${tag}  - ${oneLine(value ?? '')}`.trimEnd())
    .join('\r\n')
    .concat('\r\n');
}

/** Authors as a sentence names them: "A", "A and B", "A, B and C". */
function authorList(authors: readonly string[]): string {
  const names = authors.map(oneLine).filter(Boolean);
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The reference line of exported notes, as plain parts: authors, title, year, library. */
export function citationParts(
  item: CitedItem,
  libraryName: string,
): { authors: string; title: string; year: string; library: string } {
  return {
    authors: authorList(item.authors),
    title: oneLine(item.title),
    year: item.year === null ? '' : String(item.year),
    library: libraryName,
  };
}

/** A file name from a title: "Frankenstein; or, the Modern Prometheus" → "frankenstein-or-the-modern-prometheus". */
export function fileNameOf(title: string, fallback = 'item'): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}
