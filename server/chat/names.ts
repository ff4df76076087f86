import unhomoglyph from 'unhomoglyph';

/*
 * What makes two names the same to a reader, and which names are kept for staff (issue 19,
 * decision 021): the one place the server folds names, for usernames and room names alike. The
 * contract's schemas have already normalised a name and refused invisible characters.
 */

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Full case folding as far as JavaScript offers it: 'ß' and 'SS' both become 'ss'. */
const foldCase = (text: string) => text.toUpperCase().toLowerCase();

/**
 * Unicode TR39's skeleton: NFD, default-ignorable code points dropped, each character replaced by
 * its prototype from Unicode's confusables.txt (the data `unhomoglyph` carries), NFD again.
 */
function tr39Skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD').replace(DEFAULT_IGNORABLE, '')).normalize('NFD');
}

/**
 * The key under which a name is unique: the TR39 skeleton of the case-folded NFKC name, folded and
 * skeletoned once more, because some prototypes are capitals ('0' becomes 'O') and names are
 * unique regardless of case. 'Librarian99', 'LIBRARIAN99', 'Ｌｉｂｒａｒｉａｎ９９' and 'Librаrian99'
 * (a Cyrillic 'а') all have the skeleton 'librarian99'. Never shown: 'm' becomes 'rn'.
 */
export function nameSkeleton(name: string): string {
  return tr39Skeleton(foldCase(tr39Skeleton(foldCase(name.normalize('NFKC')))));
}

/** Only the letters of a skeleton: marks, digits, spaces and punctuation go. */
const lettersOf = (skeleton: string) => skeleton.replace(/\P{L}/gu, '');

/**
 * Staff words a name may not hold anywhere ('DeskLibrarian', 'Librarian99', 'Lib rarian'): long
 * enough that no everyday word hides them.
 */
const STAFF_WORDS_ANYWHERE = ['librarian', 'moderator', 'administrator'].map((word) =>
  lettersOf(nameSkeleton(word)),
);

/**
 * Staff words a name may not hold as a word of its own (or its plural): 'Admin', 'Site admin',
 * 'SiteAdmin', 'Staff2', 'Mods'. Inside other words they stay free: 'Badminton club',
 * 'Business administration', 'Flagstaff'.
 */
const STAFF_WORDS_ALONE = new Set(
  ['admin', 'staff', 'mod'].flatMap((word) =>
    [word, `${word}s`].map((form) => lettersOf(nameSkeleton(form))),
  ),
);

/**
 * The words of a name, each as its skeleton: split where a lower-case letter meets a capital, and
 * at digits, white space and punctuation (a digit such as '1' would otherwise fold into a letter).
 */
function wordSkeletons(name: string): string[] {
  return name
    .normalize('NFKC')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .split(/[\p{N}\p{Z}\p{P}\p{Cc}]+/u)
    .map((word) => lettersOf(nameSkeleton(word)))
    .filter((word) => word.length > 0);
}

/**
 * True when `name` would pass for library staff: it holds a staff word (after folding look-alikes,
 * case and accents), or one of `alsoKept` (the library's name, for usernames) anywhere.
 * Librarians may use such names; nobody else may.
 */
export function impersonatesStaff(name: string, alsoKept: readonly string[] = []): boolean {
  const letters = lettersOf(nameSkeleton(name));
  const anywhere = [
    ...STAFF_WORDS_ANYWHERE,
    ...alsoKept.map((kept) => lettersOf(nameSkeleton(kept))),
  ].filter((word) => word.length > 0);
  if (anywhere.some((word) => letters.includes(word))) return true;
  return wordSkeletons(name).some((word) => STAFF_WORDS_ALONE.has(word));
}
