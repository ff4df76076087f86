import {
  DataSet,
  RegExpMatcher,
  collapseDuplicatesTransformer,
  englishDataset,
  englishRecommendedTransformers,
  parseRawPattern,
  resolveConfusablesTransformer,
  resolveLeetSpeakTransformer,
  toAsciiLowerCaseTransformer,
  type TransformerContainer,
} from 'obscenity';

/*
 * The chat's abuse check (issue 6, docs/decisions/008-moderation-in-contract.md). The server runs
 * it on every message and the browser runs the same code before sending, so both sides must build
 * it from the same extra words (the server serves them to the browser).
 *
 * Two obscenity matchers:
 * - obscenity's maintained English set with its recommended transformers (confusable letters,
 *   l33t speak, case, repeated letters), plus a few whitelisted words it would otherwise flag;
 * - the library's own words, each bounded by word boundaries so a word that merely contains one
 *   ('Scunthorpe', 'assessment', 'classic') passes.
 * The second matcher cannot share the first one's transformers: those collapse every doubled
 * letter to one, which turns the listed 'butt' into 'but', 'xx' into 'x' and 'dommes' into 'domes'.
 * Its own keep runs of two and cut longer runs to three, and each letter of a word matches one or
 * three of it ('raaaping') but never two, so 'rapping' and 'Bonner' do not read as 'raping' and
 * 'boner'.
 */

/** What a phrase of either matcher carries: the word as listed, for `matches`. */
interface Listed {
  originalWord: string;
}

/**
 * Ordinary words that obscenity's English set flags because they contain or collapse into one of
 * its words ('trafficking' reads as f?ck, 'shiitake' as shit, 'annals' as anal): found by running
 * the set over an English dictionary and keeping what an academic library's readers would write.
 * A whitelisted term hides only the matches lying wholly inside it, so 'cockpit' still lets
 * 'cock' through elsewhere. Matched lower-cased with spaces collapsed, by both matchers.
 */
const ORDINARY_WORDS = [
  // anal, anus
  'analects',
  'analge', // analgesia, analgesic
  'annal',
  'reanaly',
  'metaanaly',
  'gondwanaland',
  'coriolanus',
  'oceanus',
  'eridanus',
  // ass
  'assort',
  'assonan',
  'assyria',
  // cock, cuck
  'cockpit',
  'cocksure',
  'cockscomb',
  'cuckold',
  // cum
  'cum laude',
  'cumin',
  'cummings',
  'cumquat',
  'cummerbund',
  // dick
  'chappaquiddick',
  'dicker',
  'dickerson',
  'dickinson',
  'dickson',
  // fag
  'fagin',
  'fagus',
  'fagac', // Fagaceae
  // fuck (f?ck, |fu|, |fuk)
  'du fu',
  'feckless',
  'fock', // Hartree–Fock, Fock space
  'fuku', // Fukushima, Fukuoka, Fukuyama
  'traffick',
  // piss, rape, retard, shit, vagina, dyke, wank
  'pissarro',
  'rapped',
  'rapeseed',
  'retardant',
  'retardation',
  'shiitake',
  'shiite',
  'invagina',
  'vandyke',
  'wankel',
];

/** Separators inside a configured phrase: any one character stands for them ('blow-job'). */
const SEPARATORS = new Set([' ', '-', '_', '.', '/']);
/** Apostrophes inside a configured word may be left out or be any character ('who’re'). */
const APOSTROPHES = new Set(["'", '\u2019']);
/** Characters with a meaning in obscenity's pattern syntax. */
const PATTERN_SYNTAX = /[\\[\]?|]/g;

/**
 * Transformers for the configured words: obscenity's recommended ones, except that a run of a
 * character is cut to three rather than one, so 'butt' stays 'butt' and 'buuuttttt' becomes
 * 'buuuttt'. Runs of separators are cut to one so a phrase's single wildcard matches 'blow   job'.
 */
const extraTransformers: TransformerContainer[] = [
  resolveConfusablesTransformer(),
  resolveLeetSpeakTransformer(),
  toAsciiLowerCaseTransformer(),
  collapseDuplicatesTransformer({
    defaultThreshold: 3,
    customThresholds: new Map([...SEPARATORS].map((separator) => [separator, 1])),
  }),
];

/** As many 9s as `text` has characters: what l33t speak leaves alone, lengths unchanged. */
const nines = (text: string) => '9'.repeat(text.length);
/** A UUID standing on its own (not inside a longer run of letters and digits). */
const UUID = /(?<![\p{L}\p{N}])[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}(?![\p{L}\p{N}])/giu;
/** A web link, up to the first space or character a link would not hold. */
const LINK = /\bhttps?:\/\/[^\s<>"]+/giu;
/** A link's path parts and parameter names and values. */
const LINK_PART = /[^/?&=#]+/gu;
/**
 * Whether a part of a link is a random token rather than words a person wrote: 16 characters or
 * more with capitals and small letters, a small letter running straight into a capital or a digit
 * ('…ZTmbeVNC…'), as words with their own capitals ('Fuckin_Perfect') do not.
 */
const RANDOM_TOKEN = (part: string) =>
  part.length >= 16 && /[A-Z]/.test(part) && /[a-z][A-Z0-9]/.test(part);

/**
 * What l33t speak would misread, made plain before the matchers see it (messages and configured
 * words alike; lengths do not change):
 * - '!', '|' and '(' stand for i, i and c only inside a word ('sh!t', 'di(k'). At a word's edge
 *   they are punctuation: reading 'butt!' as 'butti' would hide the word from its word boundary.
 *   A slash is always a separator ('and/or'), never an l. Each becomes a space.
 * - A number on its own is a number: 'page 455' is not 'ass', nor '717' 'tit'. Its digits become
 *   9, which l33t speak leaves alone. Digits inside a word ('sh1t', '2g1c') still count.
 * - An identifier is not words, and becomes 9s too: a UUID (every catalogue link carries one, and
 *   its hex reads as l33t: '…-455c-…' was 'ass', and a shared book restricted its room), and, in
 *   a link, a random token (a shared reading list's, `RANDOM_TOKEN`). A link's readable words
 *   ('/fuck-this') still count.
 */
function prepare(text: string): string {
  return text
    .replace(UUID, nines)
    .replace(LINK, (link) =>
      link.replace(LINK_PART, (part) => (RANDOM_TOKEN(part) ? nines(part) : part)),
    )
    .replace(/\/|(?<![\p{L}\p{N}])[!|(]|[!|(](?![\p{L}\p{N}])/gu, ' ')
    .replace(/(?<![\p{L}\p{N}])[0-9]+(?![\p{L}\p{N}])/gu, nines);
}

/** Runs `transformers` over `text` as the matcher runs them over a message. */
function transform(text: string, transformers: readonly TransformerContainer[]): string {
  const steps = transformers.map((container) => {
    if ('transform' in container) return container.transform;
    const stateful = container.factory();
    return (char: number) => stateful.transform(char);
  });
  let out = '';
  for (const char of text) {
    let code: number | undefined = char.codePointAt(0);
    for (const step of steps) {
      if (code === undefined) break;
      code = step(code);
    }
    if (code !== undefined) out += String.fromCodePoint(code);
  }
  return out;
}

/**
 * obscenity's word characters (its boundaries are JavaScript's `\b`): ASCII letters and digits.
 * A configured word in another script gets no boundary and no run handling, and matches anywhere.
 */
const isWordChar = (char: string) => /^[a-z0-9]$/i.test(char);

/**
 * The obscenity pattern for one configured word or phrase, or undefined when nothing is left of
 * it. The word is prepared and transformed first, exactly as messages are (so '2g1c' becomes
 * 'zgic' on both sides). Then a single letter matches one or three of it (`a[aa]`), a double two
 * or three (`tt[t]`), a separator is any one character, an apostrophe may be left out, and the
 * ends are word boundaries where the word starts or ends with a letter or digit (a boundary next
 * to '🖕' could never match).
 */
function toPattern(word: string): string | undefined {
  const chars = [...transform(prepare(word.trim()), extraTransformers)];
  const edge = (char: string | undefined) =>
    char !== undefined && (SEPARATORS.has(char) || APOSTROPHES.has(char));
  while (edge(chars[0])) chars.shift();
  while (edge(chars.at(-1))) chars.pop();
  if (chars.length === 0) return undefined;
  let body = '';
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i]!;
    if (SEPARATORS.has(char)) body += '?';
    else if (APOSTROPHES.has(char)) body += '[?]';
    else if (!isWordChar(char)) body += char.replace(PATTERN_SYNTAX, '\\$&');
    else {
      let run = 1;
      while (run < 3 && chars[i + run] === char) run += 1;
      i += run - 1;
      // A doubled letter ('butt') must stay doubled, or the pattern would match 'but'.
      body +=
        run === 1
          ? `${char}[${char}${char}]`
          : run === 2
            ? `${char}${char}[${char}]`
            : char.repeat(3);
    }
  }
  const start = isWordChar(chars[0]!) ? '|' : '';
  const end = isWordChar(chars.at(-1)!) ? '|' : '';
  return start + body + end;
}

/**
 * Three or more single characters with one separator between each ('f u c k', 'f.u.c.k',
 * 's-e-x'), which a reader reads as one word. Initials with a dot and a space ('J. R. R.') and
 * words of two letters or more are left alone.
 */
const SPACED_LETTERS =
  /(?<![\p{L}\p{N}$@])(?:[\p{L}\p{N}$@][\s._*-]){2,}[\p{L}\p{N}$@](?![\p{L}\p{N}$@])/gu;

/** Dots, stars and underscores inside a word ('fu.ck', 'fu_ck', 'fu*k'). */
const INNER_PUNCTUATION = /(?<=[\p{L}\p{N}])[.*_]+(?=[\p{L}\p{N}])/gu;

/** `text` with spaced letters and broken-up words joined, so the matchers see what a reader sees. */
function joinUp(text: string): string {
  return text
    .replace(SPACED_LETTERS, (run) => run.replace(/[\s._*-]/gu, ''))
    .replace(INNER_PUNCTUATION, '');
}

/** The chat's abuse check; build it once with `createModerator` and reuse it. */
export interface Moderator {
  /**
   * True when `text` holds a listed word or an obfuscation of one. Runs on every chat message:
   * about 0.2 ms for a short message with the LDNOOBW list configured, 1.5 ms for 2,000 characters.
   */
  isAbusive(text: string): boolean;
  /**
   * The listed words found in `text` (obscenity's word or the configured entry), each once, in
   * alphabetical order, for tests and logs. Slower than `isAbusive`: it looks for every match.
   */
  matches(text: string): string[];
}

/**
 * Builds the chat's abuse check: obscenity's English set plus `extraWords`, the library's own
 * words and phrases (configuration, see `parseWordList`). Building compiles a few hundred regular
 * expressions: do it once and reuse the result.
 */
export function createModerator(extraWords: readonly string[] = []): Moderator {
  const base = new DataSet<Listed>().addAll(englishDataset).addPhrase((phrase) => {
    for (const term of ORDINARY_WORDS) phrase.addWhitelistedTerm(term);
    return phrase;
  });
  const baseMatcher = new RegExpMatcher({ ...base.build(), ...englishRecommendedTransformers });

  const extras = new DataSet<Listed>();
  const seen = new Set<string>();
  for (const word of extraWords) {
    const pattern = toPattern(word);
    if (pattern === undefined || seen.has(pattern)) continue;
    seen.add(pattern);
    extras.addPhrase((phrase) =>
      phrase.setMetadata({ originalWord: word.trim() }).addPattern(parseRawPattern(pattern)),
    );
  }
  const extraMatcher =
    seen.size === 0
      ? undefined
      : new RegExpMatcher({
          ...extras.build(),
          whitelistedTerms: ORDINARY_WORDS,
          blacklistMatcherTransformers: extraTransformers,
          whitelistMatcherTransformers: englishRecommendedTransformers.whitelistMatcherTransformers,
        });

  const variants = (message: string) => {
    const text = prepare(message);
    const joined = joinUp(text);
    return joined === text ? [text] : [text, joined];
  };

  return {
    isAbusive(text) {
      return variants(text).some(
        (variant) => baseMatcher.hasMatch(variant) || (extraMatcher?.hasMatch(variant) ?? false),
      );
    },
    matches(text) {
      const found = new Set<string>();
      for (const variant of variants(text)) {
        for (const match of baseMatcher.getAllMatches(variant, true)) {
          const { phraseMetadata } = base.getPayloadWithPhraseMetadata(match);
          if (phraseMetadata) found.add(phraseMetadata.originalWord);
        }
        for (const match of extraMatcher?.getAllMatches(variant, true) ?? []) {
          const { phraseMetadata } = extras.getPayloadWithPhraseMetadata(match);
          if (phraseMetadata) found.add(phraseMetadata.originalWord);
        }
      }
      return [...found].sort();
    },
  };
}

/**
 * The entries of a word-list file (the server's `MODERATION_WORDS_FILE`): one word or phrase a
 * line, blank lines and lines starting with '#' ignored, surrounding spaces trimmed. The same
 * format as the LDNOOBW lists. Reading the file is the caller's business: contract/ has no fs.
 */
export function parseWordList(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
