import { describe, expect, it } from 'vitest';
import { hasInvisibleCharacters, NAME_TEXT, normaliseName } from './names.ts';
import { chatUsernameSchema, createRoomSchema, joinRoomSchema } from './socket/chat.ts';

/** What the username field makes of `username`: the stored name, or the first refusal. */
function username(value: string): string {
  const result = chatUsernameSchema.safeParse({ username: value });
  return result.success ? result.data.username : `refused: ${result.error.issues[0]!.message}`;
}

/** What create_room makes of `roomName`, as {@link username} does. */
function newRoom(value: string): string {
  const result = createRoomSchema.safeParse({ roomName: value });
  return result.success ? result.data.roomName : `refused: ${result.error.issues[0]!.message}`;
}

const refused = (message: string) => `refused: ${message}`;

/** The invisible and direction-changing characters of issue 19 finding 4, and their kin. */
const INVISIBLE = {
  'zero-width space U+200B': '\u200B',
  'zero-width non-joiner U+200C': '\u200C',
  'zero-width joiner U+200D': '\u200D',
  'left-to-right mark U+200E': '\u200E',
  'right-to-left mark U+200F': '\u200F',
  'left-to-right embedding U+202A': '\u202A',
  'right-to-left override U+202E': '\u202E',
  'left-to-right isolate U+2066': '\u2066',
  'pop directional isolate U+2069': '\u2069',
  'Arabic letter mark U+061C': '\u061C',
  'word joiner U+2060': '\u2060',
  'byte-order mark U+FEFF': '\uFEFF',
  'soft hyphen U+00AD': '\u00AD',
  'Hangul filler U+3164': '\u3164',
  'combining grapheme joiner U+034F': '\u034F',
  'variation selector U+FE00': '\uFE00',
  'line separator U+2028': '\u2028',
  'tag letter U+E0041': '\u{E0041}',
};

describe('names people choose (issue 19)', () => {
  it('normalises: NFKC, white space runs one space, none at either end', () => {
    expect(normaliseName('  Ada \u00A0\u3000 Lovelace  ')).toBe('Ada Lovelace');
    expect(normaliseName('Ｌｉｂｒａｒｉａｎ９９')).toBe('Librarian99');
    expect(normaliseName('ﬁne 𝐁𝐨𝐥𝐝 ①')).toBe('fine Bold 1');
    // Composed, as NFKC composes: 'e' and a combining acute become 'é'.
    expect(normaliseName('Jose\u0301')).toBe('José');
  });

  it('stores usernames and room names in the normalised form', () => {
    expect(username('  Ｌｉｂｒａｒｉａｎ９９  ')).toBe('Librarian99');
    expect(username('Ada   \u00A0 L')).toBe('Ada L');
    expect(newRoom('  Physics   101 ')).toBe('Physics 101');
    expect(newRoom('Ｇｅｎｅｒａｌ')).toBe('General');
  });

  it.each(Object.entries(INVISIBLE))('refuses a username holding a %s', (_, char) => {
    expect(hasInvisibleCharacters(`Desk${char}Librarian`)).toBe(true);
    for (const value of [`Desk${char}Lib`, `${char}Librarian`, `Librarian${char}`]) {
      expect(username(value)).toBe(refused(NAME_TEXT.usernameInvisible));
    }
  });

  it.each(Object.entries(INVISIBLE))('refuses a new room name holding a %s', (_, char) => {
    for (const value of [`Gen${char}eral`, `${char}General`, `General${char}`]) {
      expect(newRoom(value)).toBe(refused(NAME_TEXT.roomInvisible));
    }
  });

  it('refuses the strings of finding 4 that hide or reorder, and folds the one that only looks alike', () => {
    expect(username('Desk\u200BLibrarian')).toBe(refused(NAME_TEXT.usernameInvisible));
    expect(username('\u202Enairarbil')).toBe(refused(NAME_TEXT.usernameInvisible));
    expect(newRoom('\u200BGeneral')).toBe(refused(NAME_TEXT.roomInvisible));
    // A Cyrillic 'а' is a letter people use: the contract keeps it, and the server's skeleton
    // makes it the same name as 'Librarian' (server/chat/names.ts).
    expect(username('Librаrian')).toBe('Librаrian');
    // Staff words are the server's to refuse: it knows who asks.
    expect(username('Desk Librarian')).toBe('Desk Librarian');
  });

  it('keeps control characters and < > refused, also when NFKC makes them', () => {
    expect(username('ada\tl')).toBe(refused('Usernames cannot hold < > or control characters'));
    expect(username('ada\u0085l')).toBe(refused('Usernames cannot hold < > or control characters'));
    expect(username('＜b＞hi')).toBe(refused('Usernames cannot hold < > or control characters'));
    expect(newRoom('Gen\neral')).toBe(refused('Room names cannot hold control characters'));
  });

  it('checks the lengths of the stored form', () => {
    // Two code units that NFKC composes into one letter.
    expect(username('e\u0301')).toBe(refused('Usernames are 2 to 30 characters'));
    // One character that NFKC spells out in eighteen.
    expect(username('\uFDFA'.repeat(2))).toBe(refused('Usernames are 2 to 30 characters'));
    expect(newRoom(' \u3000 ')).toBe(refused('Please enter a room name'));
    expect(newRoom('．．')).toBe(refused('Room names cannot be "." or ".."'));
  });

  it('lets an emoji keep its colour form (U+FE0F after an emoji), and nothing else invisible', () => {
    expect(username('Ada ☕\uFE0F')).toBe('Ada ☕\uFE0F');
    expect(newRoom('☕\uFE0F Coffee break')).toBe('☕\uFE0F Coffee break');
    expect(username('Ad\uFE0Fa')).toBe(refused(NAME_TEXT.usernameInvisible));
    // Other scripts and right-to-left letters are names, not tricks.
    expect(username('Noor نور')).toBe('Noor نور');
    expect(username('שרה')).toBe('שרה');
    expect(newRoom('Études françaises')).toBe('Études françaises');
  });

  it('still lets a room made before these rules be named, to join or close it', () => {
    expect(joinRoomSchema.parse({ roomName: 'Gen\u200Beral' }).roomName).toBe('Gen\u200Beral');
  });
});
