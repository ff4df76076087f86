/**
 * Step 1 of the chatbot's pipeline (decision 039): the question in a form the later steps can
 * compare. Markup is dropped (never read, never repeated back), curly quotes straightened, case
 * folded, and everyday typos corrected word by word. Typos in titles, authors and topics are left
 * to the catalogue's own "did you mean" (server/catalogue/typos.ts), which knows its vocabulary:
 * the search runs it when the words as typed find nothing.
 */

/** Everyday misspellings of the words the help topics turn on. */
export const EVERYDAY_TYPOS: Record<string, string> = {
  libary: 'library',
  liberary: 'library',
  librery: 'library',
  pasword: 'password',
  passwrd: 'password',
  pswd: 'password',
  reserv: 'reserve',
  resrve: 'reserve',
  reservaton: 'reservation',
  reservatons: 'reservations',
  resevation: 'reservation',
  reservasion: 'reservation',
  cancle: 'cancel',
  reqest: 'request',
  requst: 'request',
  aproved: 'approved',
  registr: 'register',
  regster: 'register',
  acount: 'account',
  accout: 'account',
  gogle: 'google',
  googel: 'google',
  emial: 'email',
  emal: 'email',
  adress: 'address',
  addres: 'address',
  opning: 'opening',
  openning: 'opening',
  tonite: 'tonight',
  tommorow: 'tomorrow',
  tomorow: 'tomorrow',
  tmrw: 'tomorrow',
  sundy: 'sunday',
  satuday: 'saturday',
  weeknd: 'weekend',
  fourm: 'forum',
  froum: 'forum',
  somone: 'someone',
  borow: 'borrow',
  availble: 'available',
  avaliable: 'available',
  recomend: 'recommend',
  reccomend: 'recommend',
  recommand: 'recommend',
  sugest: 'suggest',
  somthing: 'something',
  somethin: 'something',
  novle: 'novel',
  storys: 'stories',
  reserch: 'research',
  beginers: 'beginners',
  writen: 'written',
  publishd: 'published',
  cofee: 'coffee',
  developr: 'developer',
  wat: 'what',
  whats: 'what is',
  wheres: 'where is',
  whos: 'who is',
  thru: 'through',
  pls: 'please',
  plz: 'please',
  u: 'you',
  ur: 'your',
  r: 'are',
  im: "i'm",
  dont: "don't",
  doesnt: "doesn't",
  cant: "can't",
  shes: 'she is',
  hes: 'he is',
  elses: "else's",
};

/** Markup someone typed (`<script>`, `<img onerror=…>`). */
const MARKUP = /<\/?[a-z!][^<>]*(>|$)/gi;

/** `text` without markup, including markup that taking other markup out puts together. */
export function withoutMarkup(text: string): string {
  let before: string;
  let after = text;
  do {
    before = after;
    after = before.replace(MARKUP, ' ');
  } while (after !== before);
  return after;
}

/** A question, normalised: `text` for matching; `original` keeps the capitals of titles. */
export interface Normalised {
  /** Lower case, straight quotes, everyday typos corrected, spaces collapsed. */
  text: string;
  /** Markup removed and spaces collapsed, otherwise as typed. */
  original: string;
  /** The words corrected, as typed → as read. */
  corrected: [string, string][];
}

/** Step 1: folds case and quotes, drops markup and corrects {@link EVERYDAY_TYPOS}. */
export function normalise(prompt: string): Normalised {
  const original = withoutMarkup(prompt).replace(/\s+/g, ' ').trim();
  const corrected: [string, string][] = [];
  const text = original
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[“”«»]/g, '"')
    .replace(/\p{L}+/gu, (word) => {
      const fixed = EVERYDAY_TYPOS[word];
      if (fixed === undefined) return word;
      corrected.push([word, fixed]);
      return fixed;
    });
  return { text, original, corrected };
}

/** The words of a normalised text: letters and digits, apostrophes dropped. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/'/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}
