import { createHash } from 'node:crypto';
import { squash } from '../catalogue/import/text.ts';

/**
 * An item's embedded text stops after this many words (about 400 of the model's word pieces).
 * The model averages what it reads, so a long description or a page of text would outweigh the
 * title and subjects that say most about an item; and a 300-word text costs about 85 ms, where
 * thousands of words cost seconds (bench/README.md, "Embeddings").
 */
export const EMBEDDING_TEXT_WORDS = 300;

/**
 * At most this many characters whatever the words: a "word" can be a URL or a run of symbols
 * thousands of characters long.
 */
export const EMBEDDING_TEXT_CHARACTERS = 2_400;

/** Only the first few authors: a physics paper can list hundreds, which say little of its subject. */
export const EMBEDDED_AUTHORS = 5;

/** Only the first subjects, for the same reason as the authors. */
export const EMBEDDED_SUBJECTS = 10;

/** What of a catalogue item is embedded: the columns of `items` that say what it is about. */
export interface EmbeddableItem {
  title: string;
  authors: readonly string[];
  subjects: readonly string[];
  /** A book's blurb, a paper's abstract, a course's description. */
  description: string | null;
}

/**
 * Joins parts into sentences, each ending in a full stop unless it ends in punctuation already.
 * Each part is cut long before the bound first, so a megabyte of description costs nothing.
 */
function sentences(parts: readonly string[]): string {
  return parts
    .map((part) => squash(part.slice(0, 8 * EMBEDDING_TEXT_CHARACTERS)))
    .filter((part) => part !== '')
    .map((part) => (/[.!?:;]$/.test(part) ? part : `${part}.`))
    .join(' ');
}

/** Cuts a text after {@link EMBEDDING_TEXT_WORDS} words and {@link EMBEDDING_TEXT_CHARACTERS}. */
function bounded(text: string): string {
  let result = text.split(' ', EMBEDDING_TEXT_WORDS).join(' ');
  if (result.length > EMBEDDING_TEXT_CHARACTERS) {
    result = result.slice(0, EMBEDDING_TEXT_CHARACTERS);
    const space = result.lastIndexOf(' ');
    if (space > 0) result = result.slice(0, space);
  }
  return result;
}

/**
 * The text of a catalogue item that is embedded: title, authors, subjects, then the description,
 * then the text of the first `pages` (a held book's `item_pages`, first pages first) while the
 * bound of {@link EMBEDDING_TEXT_WORDS} words leaves room; one page is plenty. Whitespace is
 * collapsed. Empty only for an item with nothing but empty fields, which is not to be embedded.
 */
export function embeddingText(item: EmbeddableItem, pages: readonly string[] = []): string {
  return bounded(
    sentences([
      item.title,
      item.authors.map(squash).filter(Boolean).slice(0, EMBEDDED_AUTHORS).join(', '),
      item.subjects.map(squash).filter(Boolean).slice(0, EMBEDDED_SUBJECTS).join(', '),
      item.description ?? '',
      ...pages,
    ]),
  );
}

/**
 * md5 (hex) of the model's name and the text, as `item_embeddings.text_hash` keeps it: an item
 * whose text changed, or any item once the model changes, no longer matches and is embedded again.
 */
export function textHash(text: string, model: string): string {
  return createHash('md5').update(model).update('\n').update(text).digest('hex');
}
