import type { ItemType } from '#contract/http/catalogue.ts';
import type { Day } from './pipeline/extract.ts';

/** What a question asks for, as far as the built-in assistant can tell. */
export type Intent =
  | { kind: 'greeting' }
  | { kind: 'thanks' }
  | { kind: 'help' }
  | { kind: 'hours'; day?: Day }
  | { kind: 'contact' }
  | { kind: 'reserve-howto' }
  | { kind: 'request-howto' }
  | { kind: 'forum-howto' }
  | { kind: 'my-reservations' }
  | { kind: 'my-requests' }
  | { kind: 'others-data' }
  | { kind: 'injection' }
  | { kind: 'availability'; title: string }
  | { kind: 'author-of'; title: string }
  | { kind: 'works-by'; author: string; type?: ItemType }
  | { kind: 'topic'; topic: string; type?: ItemType }
  | { kind: 'recommend'; title: string; withoutItself?: boolean }
  // Issue 25: understood by the pipeline (server/chatbot/pipeline/).
  | { kind: 'account'; topic: AccountTopic }
  | { kind: 'circulation-howto' }
  | { kind: 'my-loans' }
  | { kind: 'clarify' }
  | { kind: 'lookup'; title: string; author?: string }
  | { kind: 'year-of'; title: string }
  | { kind: 'isbn'; isbn: string }
  | { kind: 'arxiv'; id: string }
  | { kind: 'borrowable'; titles: string[] }
  | { kind: 'recommend-topic'; topic: string; type?: ItemType; more?: boolean }
  | { kind: 'request-this'; title: string }
  | { kind: 'unknown' };

/** What an account question is about. */
export type AccountTopic = 'password' | 'signin' | 'signup' | 'password-rules' | 'change-password';

/** Attempts to make the assistant drop its rules or show its instructions. */
const INJECTION = [
  /\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|rules|prompts?|guidelines|above|previous|prior)\b/,
  /\b(system|hidden|initial|original)\s+(prompt|instructions?|message)\b/,
  /\byour\s+(instructions|prompt|rules|guidelines)\b/,
  /\b(you are now|act as|pretend to be|roleplay as|jailbreak|developer mode|dan mode)\b/,
  /\b(print|reveal|repeat|show|tell me|output|leak)\b.{0,30}\b(prompt|instructions|configuration|secret|api key|password)s?\b/,
  /\b(repeat|recite|print|copy|output)\b.{0,40}\b(word for word|verbatim|everything (above|before))\b/,
  /\bwhat (were|was|have) you (been )?(told|instructed|given|programmed)\b/,
];

/** Questions about somebody else's records (never answered, whoever asks). */
const OTHERS_DATA = [
  /\b(all|every(one'?s)?|everybody'?s|other (people|users|students)'?s?|someone else'?s?|another (user|student)'?s?)\b.{0,30}\b(reserv\w*|request\w*|book(ed|ings?)|borrow\w*|records?|loans?|e-?mails?|accounts?|passwords?|phone numbers?)\b/,
  /\b(reservations?|requests?|bookings?|records?|loans?|e-?mails?|e-?mail addresses|addresses|accounts?|passwords?|phone numbers?|names)\b.{0,30}\b(of|for|by|made by|from|belonging to)\s+(all|every|other|the other|another)\b/,
  /\b(reservations?|requests?|bookings?|loans?|records?)\b.{0,20}\b(of|for|by|made by)\b\s+(user|student|someone|somebody|[a-z0-9._%+-]+@[a-z0-9.-]+)/,
  /\b(who|which (students?|users?|people))\b.{0,20}\b(reserved|requested|borrowed|booked)\b/,
  /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}.{0,30}\b(reserv|request|borrow|book)/,
];

const TYPE_WORDS: [RegExp, ItemType][] = [
  [/^(research\s+)?(papers?|articles?|research|publications?|preprints?)$/, 'paper'],
  [
    /^(course\s+materials?|courses?|lecture notes|syllabi|syllabus|materials?|tutorials?|classes|lectures?)$/,
    'course',
  ],
  [/^(books?|novels?|textbooks?|titles?)$/, 'book'],
];

/** The catalogue type a noun names ('papers' → paper), if any. */
export function typeOf(noun: string | undefined): ItemType | undefined {
  if (!noun) return undefined;
  const word = noun.trim().toLowerCase();
  return TYPE_WORDS.find(([pattern]) => pattern.test(word))?.[1];
}

/** Markup someone typed (`<script>`, `<img onerror=…>`): never read, never repeated back. */
const MARKUP = /<\/?[a-z!][^<>]*(>|$)/gi;

/**
 * `text` without markup, including markup that taking other markup out puts together: one pass
 * turns '<scr<b>ipt>' into '<scr ipt>'. Each pass shortens the text, so this ends.
 */
function withoutMarkup(text: string): string {
  let before: string;
  let after = text;
  do {
    before = after;
    after = before.replace(MARKUP, ' ');
  } while (after !== before);
  return after;
}

/** Nouns that name no subject: "python courses" is about python, "free courses" about nothing. */
const NOT_A_SUBJECT =
  /\b(i|i'm|im|me|my|you|your|u|ur|we|our|can|could|how|what|whats|when|where|why|who|which|is|are|do|does|did|reserve|borrow|request|the library|there|this|that|it)\b/;

/** What names no title: "a copy of a book", "copies of it". */
const GENERIC =
  /^(an? |any |some |the |this |that |these |those |my )?(it|them|one|physical |printed )?(books?|cop(y|ies)|titles?|texts?|novels?)?\s*[?!.]*$/;

/** Questions about how something works, not about one's own records or one title. */
const ASKS_HOW =
  /\bwhat (if|happens (if|when))\b|\bhow (long|many|much|far|early|soon|often)\b|^how (do|does|can|could|should|would|to)\b(?!.{0,20}\b(see|check|view|find|look at)\b.{0,10}\bmy\b)/;

/** "like", "similar to", "in the style of": what asks for items resembling a title. */
const LIKE =
  /(?:just |a bit |kind of |sort of )?(?:like|similar to|in the (?:same )?(?:vein|style) (?:of|as)|along the lines of|resembling)/
    .source;

/**
 * Asking for more like a title: "something like Frankenstein", "books similar to Pride and
 * Prejudice", "more like The Time Machine", "anything else in the style of Dracula".
 */
const RECOMMEND = [
  new RegExp(
    String.raw`\b(?:something|anything|stuff|things|books?|novels?|(?:research\s+)?papers?|articles?|reads?|readings?|titles?|works?|courses?|items?|more|others?|recommendations?)\s+(?:else\s+)?${LIKE}\s+(.+)`,
  ),
  /\bsimilar to\s+(.+)/,
  // "I loved The Hunger Games, what should I read next?"
  /^(?:i|we)\s+(?:really\s+)?(?:liked|loved|enjoyed|like|love|enjoy)\s+(.+?)\s*(?:[,.;!]|\s-)\s*(?:so\s+|and\s+)?(?:what|which|any|anything|something|can you|could you|recommend|suggest|give me|show me)\b/,
];

/** What names no title after "like": "something like that", "books like these". */
const NOT_A_TITLE =
  /^(this|that|these|those|it|them|him|her|me|you|what|which|a few|some|any|one)\b|^\W*$/;

/** Trims quotes, a trailing question mark and filler from an extracted title or topic. */
export function cleanPhrase(text: string): string {
  return text
    .replace(/[?!.]+\s*$/g, '')
    .replace(/^\s*(the book|the novel|the paper|a book called|a book named|book|novel)\s+/i, '')
    .replace(/\s+(please|pls|thanks|thank you|in (the|your) (library|catalogue|catalog))\s*$/i, '')
    .replace(/^["'“”‘’«]+|["'“”‘’»]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Reads what a question asks. Plain patterns, in an order that resolves overlaps: safety first
 * (attempts to override the rules, other people's data), then one's own records, then questions
 * about a title, an author or a topic, then the library's facts and how-tos.
 */
export function recognise(prompt: string): Intent {
  const plain = withoutMarkup(prompt);
  const text = plain.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  const original = plain.replace(/\s+/g, ' ').trim();
  if (text.replace(/[^\p{L}\p{N}]/gu, '') === '') return { kind: 'unknown' };
  /** The same span of the original text, to keep a title's capitals. */
  const span = (match: RegExpMatchArray, group: number) => {
    const found = match[group] ?? '';
    const start = text.indexOf(found, match.index ?? 0);
    return cleanPhrase(start >= 0 ? original.slice(start, start + found.length) : found);
  };

  if (INJECTION.some((pattern) => pattern.test(text))) return { kind: 'injection' };
  if (OTHERS_DATA.some((pattern) => pattern.test(text))) return { kind: 'others-data' };

  // "How long do you hold my reservation?", "how do I suggest a book?": rules, not records.
  if (ASKS_HOW.test(text)) {
    if (
      /\b(reserv\w*|hold|pick ?up|borrow\w*|check ?out|cancel\w*|time slots?|slots?|book (a|the) (physical |printed |paper )?(copy|book)|(can|do) (i|we|you) book|to book)\b/.test(
        text,
      )
    )
      return { kind: 'reserve-howto' };
    if (/\b(request\w*|suggest\w*|purchase|buy|acquire|order)\b/.test(text))
      return { kind: 'request-howto' };
    if (/\b(forum|chat ?rooms?)\b/.test(text)) return { kind: 'forum-howto' };
  }

  if (
    /\bmy\b.{0,20}\b(reservations?|bookings?|holds?|pick-?ups?|loans?)\b/.test(text) ||
    /\bwhat (have|did) i (reserve|book)/.test(text) ||
    /\b(did|have) i reserve/.test(text) ||
    /\b(do|did) i have\b.{0,30}\b(reserv\w*|booked|on hold)\b/.test(text) ||
    /\b(pick ?up|collect|fetch|get)\b.{0,12}\bmy\b/.test(text)
  ) {
    return { kind: 'my-reservations' };
  }
  if (
    /\bmy\b.{0,20}\b(requests?|suggestions?)\b/.test(text) ||
    /\bwhat (happened|is happening) (to|with) (the|my) (request|book i (asked|requested))/.test(
      text,
    ) ||
    /\b(did|have) i (request|ask for)/.test(text) ||
    /\b(the|a) (book|title|resource|article|journal|paper)s? i (requested|asked for|suggested)\b/.test(
      text,
    ) ||
    /\b(status|update|news|progress)\b.{0,30}\b(request|i (requested|asked for|suggested))/.test(
      text,
    )
  ) {
    return { kind: 'my-requests' };
  }

  for (const pattern of RECOMMEND) {
    const like = text.match(pattern);
    if (like && !NOT_A_TITLE.test(like[1]!.trim())) {
      const title = span(like, 1).replace(/\s+(?:please|pls)$/i, '');
      if (title) return { kind: 'recommend', title };
    }
  }

  let match = text.match(
    /\b(?:is|are)\s+(.+?)\s+(?:available|free|in stock|on the shelf)(?:\s+(?:to|for)\s+(?:reserve|reservation|borrow|borrowing|pick ?up|loan))?\b/,
  );
  if (match && !/^(the library|it|there|you|this|that)$/.test(match[1]!.trim()))
    return { kind: 'availability', title: span(match, 1) };
  match = text.match(
    /\b(?:any |some )?cop(?:y|ies) of\s+(.+?)(?:\s+(?:left|available|free|in stock|on the shelf|to (?:borrow|reserve)))?\s*[?!.]*$/,
  );
  if (match && !GENERIC.test(match[1]!)) return { kind: 'availability', title: span(match, 1) };
  match = text.match(/\bcan i (?:reserve|borrow|book|pick up|get a copy of)\s+(.+)/);
  if (
    match &&
    !/^(a |any |books?$|a copy$)/.test(match[1]!.trim()) &&
    !/^(more|up to|at most|several|many|multiple|a few|\d+|two|three|four|five)\b/.test(match[1]!)
  )
    return { kind: 'availability', title: span(match, 1) };

  match = text.match(
    /\b(?:who (?:wrote|is the author of|authored|was the author of|is the writer of)|author of|writer of)\s+(.+)/,
  );
  if (match) return { kind: 'author-of', title: span(match, 1) };

  match = text.match(
    /\b((?:research\s+)?papers?|articles?|books?|novels?|works?|publications?|course materials?|stuff|things|anything|something)\s+(?:(?:do|does|did)\s+(?:you|u|the library)\s+(?:have|stock|hold|carry|got)\s+|(?:you have|are there|have you got)\s+)?(?:by|from|written by|authored by)\s+(.+)/,
  );
  if (match && !/^(the library|you)\b/.test(match[2]!)) {
    return { kind: 'works-by', author: span(match, 2), type: typeOf(match[1]) };
  }

  match = text.match(
    /\b(?:do you have|have you got|are there|is there|any|find|finding|looking for|search for|searching for|recommend|suggest|need|want|would like|'d like|show me|list)\s+(?:me\s+)?(?:some\s+|any\s+|a few\s+|good\s+|a\s+)?((?:research\s+)?papers?|articles?|books?|novels?|textbooks?|course materials?|courses?|materials?|resources?|readings?|something|anything|research|stuff|info(?:rmation)?|literature)\s+(?:on|about|regarding|related to|for|covering|in|concerning)\s+(.+)/,
  );
  if (match) return { kind: 'topic', topic: span(match, 2), type: typeOf(match[1]) };
  match = text.match(
    /^(?:(?:any|some)\s+)?((?:research\s+)?papers?|articles?|books?|novels?|textbooks?|course materials?|research|stuff|info(?:rmation)?|literature)\s+(?:on|about|regarding|for|into)\s+(.+)/,
  );
  if (match) return { kind: 'topic', topic: span(match, 2), type: typeOf(match[1]) };
  // "i want to learn javascript", "where can i learn about statistics"
  match = text.match(
    /^(?:i (?:want|need|would like|'d like|wanna) to|i'm trying to|where (?:can|do|could) i|how (?:can|do|could) i|help me)\s+(?:learn|study|read up on)\s+(?:more\s+)?(?:about\s+)?(.+)/,
  );
  if (match && !/^(how|what|where|when|why|to|the library)\b/.test(match[1]!))
    return { kind: 'topic', topic: span(match, 1) };
  // "any free python courses?", "good machine learning papers"
  match = text.match(
    /^(?:(?:are there|is there|do you have|have you got|got|find|i need|i want|looking for|recommend|suggest|show me)\s+)?(?:any\s+|some\s+)?(?:(?:free|good|online|intro(?:ductory)?|beginner|recent|new)\s+)*(.+?)\s+((?:research\s+)?papers?|articles?|books?|novels?|textbooks?|courses?|course materials?|tutorials?|lecture notes)\s*[?!.]*$/,
  );
  if (match && match[1]!.split(' ').length <= 4 && !NOT_A_SUBJECT.test(match[1]!))
    return { kind: 'topic', topic: span(match, 1), type: typeOf(match[2]) };
  match = text.match(
    /^(?:do|does) (?:you|u|the library|you guys) (?:have|stock|hold|carry|own|got)\s+(?:a copy of\s+|copies of\s+)?(.+)/,
  );
  if (match && !/^(any|some|anything|something)\b/.test(match[1]!))
    return { kind: 'availability', title: span(match, 1) };

  if (
    /\b(open(ing)?|clos(e|es|ed|ing)|hours|timings?|schedule|how late|how early|what time|weekends?)\b/.test(
      text,
    ) &&
    !/\b(slots?|pick ?up|reserv\w*)\b/.test(text)
  )
    return { kind: 'hours' };
  if (
    /\b(contact|phone|telephone|call|e-?mail|address|adress|addres|where is the library|where are you|(find|get to|reach) the library( building)?|library building|directions|located|location|reach (you|the library)|get in touch|librarian)\b/.test(
      text,
    )
  ) {
    return { kind: 'contact' };
  }
  if (
    /\b(reserv\w*|pick ?up|offline book|hold a (book|copy)|borrow\w*|check ?out|time slots?|book (a|the) (physical )?(copy|book))\b/.test(
      text,
    )
  )
    return { kind: 'reserve-howto' };
  if (
    /\b(request|suggest|purchase|acquire|order)\w*\b/.test(text) ||
    /\b(don'?t|do not|doesn'?t|does not) have\b|\bmissing\b|\bnot in the (catalogue|catalog|library)\b|\bcan'?t find\b/.test(
      text,
    )
  ) {
    return { kind: 'request-howto' };
  }
  if (/\b(forum|chat ?rooms?|discussion|rooms?|chat with)\b/.test(text))
    return { kind: 'forum-howto' };
  if (/^(hi|hello|hey|hiya|good (morning|afternoon|evening)|greetings)\b/.test(text))
    return { kind: 'greeting' };
  if (/^(thanks|thank you|thx|cheers|great|ok(ay)? thanks)\b/.test(text)) return { kind: 'thanks' };
  if (/\b(help|what can you do|who are you|what are you|how do you work)\b/.test(text))
    return { kind: 'help' };

  // A short phrase on its own ('Frankenstein', 'machine learning') is most likely a search.
  const words = text.replace(/[?!.]/g, '').split(' ').filter(Boolean);
  if (
    words.length > 0 &&
    words.length <= 6 &&
    !/^(what|whats|why|how|hows|when|where|wheres|who|whos|can|could|should|would|is|are|do|does|tell|write|give|make|help|explain|translate|solve|calculate|compute|say|sing|draw|teach)\b/.test(
      text,
    )
  ) {
    return { kind: 'topic', topic: cleanPhrase(original) };
  }
  return { kind: 'unknown' };
}
