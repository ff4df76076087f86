/**
 * Step 5 of the chatbot's pipeline, the catalogue part (decision 039): the title, author or topic
 * a question names, and what it asks of it. Small named readers, each a few focused patterns
 * over the normalised text, tried in an order that says which reading wins when two could apply:
 * how-to questions, one's own records, "something like X", a title's availability, its author,
 * an author's works, a framed topic, then the library's facts by keyword, then a bare phrase as a
 * search. The matcher (classify.ts) chooses the intent; these readers give it its title, author
 * or topic, and answer for the catalogue questions the matcher only knows as "catalogue".
 */
import type { ItemType } from '#contract/http/catalogue.ts';
import type { Intent } from '../intents.ts';
import { withoutMarkup } from './normalise.ts';

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

/** A question's text and a way back to its original span (a title keeps its capitals). */
interface Question {
  text: string;
  span: (match: RegExpMatchArray, group: number) => string;
}

/** "How long do you hold my reservation?", "how do I suggest a book?": rules, not records. */
export function howToAsked(text: string): Intent | undefined {
  if (!ASKS_HOW.test(text)) return undefined;
  if (
    /\b(reserv\w*|hold|pick ?up|borrow\w*|check ?out|cancel\w*|time slots?|slots?|book (a|the) (physical |printed |paper )?(copy|book)|(can|do) (i|we|you) book|to book)\b/.test(
      text,
    )
  )
    return { kind: 'reserve-howto' };
  if (/\b(request\w*|suggest\w*|purchase|buy|acquire|order)\b/.test(text))
    return { kind: 'request-howto' };
  if (/\b(forum|chat ?rooms?)\b/.test(text)) return { kind: 'forum-howto' };
  return undefined;
}

/** One's own reservations or requests: "what are my reservations", "did i request it". */
export function ownRecordsAsked(text: string): Intent | undefined {
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
  return undefined;
}

/** The title in "something like X", "books similar to X", "I loved X, what next?". */
function likeAsked({ text, span }: Question): Intent | undefined {
  for (const pattern of RECOMMEND) {
    const like = text.match(pattern);
    if (like && !NOT_A_TITLE.test(like[1]!.trim())) {
      const title = span(like, 1).replace(/\s+(?:please|pls)$/i, '');
      if (title) return { kind: 'recommend', title };
    }
  }
  return undefined;
}

/** The title in "is X available", "any copies of X", "can i borrow X". */
function availabilityAsked({ text, span }: Question): Intent | undefined {
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
  return undefined;
}

/** The title in "who wrote X", "author of X". */
function authorAsked({ text, span }: Question): Intent | undefined {
  const match = text.match(
    /\b(?:who (?:wrote|is the author of|authored|was the author of|is the writer of)|author of|writer of)\s+(.+)/,
  );
  return match ? { kind: 'author-of', title: span(match, 1) } : undefined;
}

/** The author (and type) in "papers by Hinton", "anything by Jane Austen". */
function worksByAsked({ text, span }: Question): Intent | undefined {
  const match = text.match(
    /\b((?:research\s+)?papers?|articles?|books?|novels?|works?|publications?|course materials?|stuff|things|anything|something)\s+(?:(?:do|does|did)\s+(?:you|u|the library)\s+(?:have|stock|hold|carry|got)\s+|(?:you have|are there|have you got)\s+)?(?:by|from|written by|authored by)\s+(.+)/,
  );
  if (!match || /^(the library|you)\b/.test(match[2]!)) return undefined;
  return { kind: 'works-by', author: span(match, 2), type: typeOf(match[1]) };
}

/**
 * The topic (and type) in a framed question: "do you have books on X", "papers about X", "i want
 * to learn X", "any free python courses"; or the title in "do you have X".
 */
function topicAsked({ text, span }: Question): Intent | undefined {
  let match = text.match(
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
  return undefined;
}

/**
 * The library's facts by a keyword, for what the matcher could not place: opening hours,
 * contact, reserving, requesting, the forum, a greeting, thanks, help.
 */
export function keywordAsked(text: string): Intent | undefined {
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
  return undefined;
}

/** A short phrase on its own ('Frankenstein', 'machine learning') is most likely a search. */
function bareSearch(text: string, original: string): Intent | undefined {
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
  return undefined;
}

/**
 * What a normalised question asks of the catalogue or the library, read by the named readers
 * above in order; `unknown` when none applies. Safety is not read here: `refusal` (safety.ts)
 * runs first.
 */
export function readQuestion(question: string): Intent {
  const original = withoutMarkup(question).replace(/\s+/g, ' ').trim();
  const text = original.toLowerCase().replace(/[’‘]/g, "'");
  if (text.replace(/[^\p{L}\p{N}]/gu, '') === '') return { kind: 'unknown' };
  /** The same span of the original text, to keep a title's capitals. */
  const span = (match: RegExpMatchArray, group: number) => {
    const found = match[group] ?? '';
    const start = text.indexOf(found, match.index ?? 0);
    return cleanPhrase(start >= 0 ? original.slice(start, start + found.length) : found);
  };
  const asked: Question = { text, span };
  return (
    howToAsked(text) ??
    ownRecordsAsked(text) ??
    likeAsked(asked) ??
    availabilityAsked(asked) ??
    authorAsked(asked) ??
    worksByAsked(asked) ??
    topicAsked(asked) ??
    keywordAsked(text) ??
    bareSearch(text, original) ?? { kind: 'unknown' }
  );
}
