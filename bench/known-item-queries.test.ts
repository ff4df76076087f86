import { describe, expect, it } from 'vitest';
import {
  booksNamedAlike,
  editionKey,
  firstAuthor,
  knownItemQueries,
  plainLowerCase,
  sampleIndexes,
  shortTitle,
  surname,
  surnameAndWord,
  transposeTypo,
} from './known-item-queries.ts';
import { seededRandom } from './seeded-random.ts';

describe('the known-item bench sample', () => {
  it('is the same for the same seed and differs for another', () => {
    expect(sampleIndexes(10_000, 300, seededRandom(22))).toEqual(
      sampleIndexes(10_000, 300, seededRandom(22)),
    );
    expect(sampleIndexes(10_000, 300, seededRandom(23))).not.toEqual(
      sampleIndexes(10_000, 300, seededRandom(22)),
    );
  });

  it('draws distinct indexes in range, all of them when asked for more', () => {
    const sample = sampleIndexes(1_000, 300, seededRandom(1));
    expect(new Set(sample).size).toBe(300);
    expect(sample.every((index) => index >= 0 && index < 1_000)).toBe(true);
    expect(sampleIndexes(5, 10, seededRandom(1)).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('is roughly uniform', () => {
    const random = seededRandom(7);
    const halves = [0, 0];
    for (let run = 0; run < 200; run += 1) {
      for (const index of sampleIndexes(100, 10, random)) halves[index < 50 ? 0 : 1]! += 1;
    }
    expect(halves[0]).toBeGreaterThan(900);
    expect(halves[1]).toBeGreaterThan(900);
  });
});

describe('the ways of typing a known book', () => {
  it('cuts the title at its subtitle or series note', () => {
    expect(shortTitle('The Hunger Games (The Hunger Games, #1)')).toBe('The Hunger Games');
    expect(shortTitle('Sapiens: A Brief History of Humankind')).toBe('Sapiens');
    expect(shortTitle('Pride and Prejudice')).toBe('Pride and Prejudice');
    expect(shortTitle('(Untitled) Story')).toBe('Untitled Story');
  });

  it('lower-cases and drops punctuation, joining words at apostrophes', () => {
    expect(plainLowerCase("Harry Potter and the Sorcerer's Stone")).toBe(
      'harry potter and the sorcerers stone',
    );
    expect(plainLowerCase('The Strange Case of Dr. Jekyll & Mr. Hyde')).toBe(
      'the strange case of dr jekyll mr hyde',
    );
    expect(plainLowerCase('Cien años de soledad')).toBe('cien años de soledad');
  });

  it('finds the surname with its particles and without a suffix', () => {
    expect(surname('J.R.R. Tolkien')).toBe('Tolkien');
    expect(surname('Ursula K. Le Guin')).toBe('Le Guin');
    expect(surname('Daphne du Maurier')).toBe('du Maurier');
    expect(surname('Kurt Vonnegut Jr.')).toBe('Vonnegut');
    expect(surname('Andre Dubus III')).toBe('Dubus');
    expect(surname('Homer')).toBe('Homer');
    expect(firstAuthor('J.K. Rowling, Mary GrandPré')).toBe('J.K. Rowling');
  });

  it('pairs the surname with a title word that is not a stop word', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const query = surnameAndWord(
        'Pride and Prejudice',
        'Jane Austen, Anna Quindlen',
        seededRandom(seed),
      );
      expect(['austen pride', 'austen prejudice']).toContain(query);
    }
    expect(surnameAndWord('It', 'Stephen King', seededRandom(1))).toBe('king it');
  });

  it('swaps two adjacent letters of a long word, or of a 4-letter word if none', () => {
    for (let seed = 0; seed < 50; seed += 1) {
      const typo = transposeTypo('The Hunger Pit', seededRandom(seed))!;
      expect(typo).not.toBe('The Hunger Pit');
      // Only "Hunger" has 5 letters: the other words are kept.
      expect(typo).toMatch(/^The \p{L}{6} Pit$/u);
      expect([...typo.slice(4, 10)].sort()).toEqual([...'Hunger'].sort());
      const changed = [...typo].filter((char, index) => char !== 'The Hunger Pit'[index]);
      expect(changed).toHaveLength(2);
    }
    expect(transposeTypo('Put Me in the Zoo Park', seededRandom(3))).toMatch(
      /^Put Me in the Zoo (?:aPrk|Prak|Pakr)$/,
    );
    expect(transposeTypo('It', seededRandom(3))).toBeUndefined();
    // A word whose letters are all the same cannot be misspelt by a swap.
    expect(transposeTypo('Zzzzz Book', seededRandom(3))).toMatch(/^Zzzzz (?:oBok|Boko)$/);
  });

  it('builds the four queries for a book, the same for the same seed', () => {
    const book = {
      title: "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
      authors: 'J.K. Rowling, Mary GrandPré',
    };
    const queries = knownItemQueries(book, seededRandom(5));
    expect(queries).toEqual(knownItemQueries(book, seededRandom(5)));
    expect(queries['short title']).toBe("Harry Potter and the Sorcerer's Stone");
    expect(queries['lower case']).toBe('harry potter and the sorcerers stone');
    expect(queries['surname + word']).toMatch(/^rowling (?:harry|potter|sorcerers|stone)$/);
    expect(queries['one typo']).toHaveLength(book.title.indexOf(' (Harry'));
    expect(knownItemQueries({ title: 'It', authors: 'Stephen King' }, seededRandom(5))).toEqual({
      'short title': 'It',
      'lower case': 'it',
      'surname + word': 'king it',
    });
  });

  it('counts another edition of the same title and first author as the book', () => {
    const book = { title: 'Emma', authors: ['Jane Austen'] };
    expect(editionKey({ title: 'EMMA', authors: ['Jane  Austen', 'Fiona Stafford'] })).toBe(
      editionKey(book),
    );
    expect(editionKey({ title: 'Emma (Revised 3)', authors: ['Jane Austen'] })).not.toBe(
      editionKey(book),
    );
    expect(editionKey({ title: 'Emma', authors: ['Alexander McCall Smith'] })).not.toBe(
      editionKey(book),
    );
  });
});

describe('how many books a query names alike', () => {
  const books = [
    { title: 'Legend (Legend, #1)', authors: 'Marie Lu' },
    { title: 'Legend (The Drenai Saga, #1)', authors: 'David Gemmell' },
    { title: 'Legend', authors: 'Marie Lu' },
    { title: 'Death on the Nile', authors: 'Agatha Christie' },
    { title: 'Death in the Clouds', authors: 'Agatha Christie' },
    { title: 'The Mysterious Affair at Styles', authors: 'Agatha Christie' },
    { title: 'The Left Hand of Darkness', authors: 'Ursula K. Le Guin' },
  ];
  it('counts other books of the same short title, editions once', () => {
    expect(booksNamedAlike(books[0]!, 'short title', 'Legend', books)).toBe(2);
    expect(booksNamedAlike(books[0]!, 'one typo', 'Lgeend', books)).toBe(2);
    expect(booksNamedAlike(books[3]!, 'lower case', 'death on the nile', books)).toBe(1);
  });
  it('counts the same surname with the word in the title', () => {
    expect(booksNamedAlike(books[3]!, 'surname + word', 'christie death', books)).toBe(2);
    expect(booksNamedAlike(books[5]!, 'surname + word', 'christie styles', books)).toBe(1);
    expect(booksNamedAlike(books[6]!, 'surname + word', 'le guin darkness', books)).toBe(1);
  });
});
