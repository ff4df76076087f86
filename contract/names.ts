/*
 * Names people choose and others read: chat usernames and room names (issue 19, decision 021).
 * The browser and the server apply the same rules through the schemas in contract/socket/chat.ts;
 * whether a name is taken, or kept for staff, only the server can tell (server/chat/names.ts).
 */

/**
 * Characters nobody sees, or that reorder what is around them: format characters (Cf: zero-width
 * spaces and joiners, the bidirectional embeddings, overrides, isolates and marks, the soft
 * hyphen, the byte-order mark), line and paragraph separators, and every other default-ignorable
 * code point (the Hangul fillers, variation selectors). One exception: U+FE0F straight after an
 * emoji, which only asks for its colour form, as phones type '☕️'.
 */
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}](?<!\p{Emoji}\uFE0F)/u;

/** True when `text` holds a character of {@link INVISIBLE}. */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * The form a name is stored and shown in: Unicode NFKC (full-width and styled letters become
 * plain ones, ligatures are split), runs of white space one space, none at either end.
 */
export function normaliseName(text: string): string {
  return text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/** What a person is told when a name is refused. */
export const NAME_TEXT = {
  usernameInvisible: 'Usernames cannot contain invisible or direction-changing characters',
  roomInvisible: 'Room names cannot contain invisible or direction-changing characters',
  /** Another person's username, or one that looks the same (letters of other scripts, case). */
  usernameTaken: 'That username is taken',
  /** Words only library staff may use in a name (server/chat/names.ts). */
  keptForStaff: 'That name is kept for library staff',
} as const;
