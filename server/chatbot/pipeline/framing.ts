/**
 * Step 3 of the chatbot's pipeline: the question without its framing. "Find research about neural
 * networks", "I'm looking for", "do you have anything by", "can you recommend": the words around
 * what is asked for, which the search must not look for. What the framing said (a type of item,
 * "by" an author, a recommendation) is kept beside the stripped text.
 */
import type { ItemType } from '#contract/http/catalogue.ts';

/** A question's framing, taken off. */
export interface Framing {
  /** What is left: the title, author or topic asked about (or the whole question). */
  rest: string;
  /** The type of item the framing named ("papers on", "courses about"), if any. */
  type?: ItemType;
  /** The framing named an author ("anything by", "books by"). */
  byAuthor: boolean;
  /** The framing asked for a recommendation ("can you recommend", "suggest"). */
  recommend: boolean;
  /** Some framing was taken off. */
  stripped: boolean;
}

const TYPE_NOUN =
  /^(?:research\s+)?(?:papers?|articles?|research|publications?|preprints?)$|^(?:courses?|course materials?|tutorials?|lectures?|lecture notes|classes)$|^(?:books?|novels?|textbooks?|titles?|reads?)$/;

/** The catalogue type a noun names ('papers' → paper), if any. */
export function typeOfNoun(noun: string): ItemType | undefined {
  const word = noun.trim();
  if (!TYPE_NOUN.test(word)) return undefined;
  if (/paper|article|research|publication|preprint/.test(word)) return 'paper';
  if (/course|tutorial|lecture|class/.test(word)) return 'course';
  return 'book';
}

const LEAD =
  /^(?:(?:ok(?:ay)?|so|well|hey|hi|please|and|also|now|then)[\s,]+)*(?:(?:can|could|would|will) (?:you|u)(?: please)?\s+|please\s+|i'?m\s+|i am\s+|i\s+|we\s+)?(?:(?:find|search for|search|look for|looking for|show|show me|give me|get me|list|need|want|would like|'d like|wanna|recommend|recommend me|suggest|suggest me|have you got|do you have|do you guys have|you have|got|are there|is there|tell me about)\s+)+/;

const QUANTIFIER =
  /^(?:(?:any|some|a few|a|an|the best|good|great|nice|more|anything|something)\s+)*/;

const TYPE_FRAME =
  /^((?:research\s+)?papers?|articles?|research|publications?|books?|novels?|textbooks?|course materials?|courses?|tutorials?|stuff|things|info(?:rmation)?|literature|resources?|materials?|readings?|works?|anything|something)\s+(on|about|regarding|related to|for|covering|concerning|into|in|with|featuring|by|from|written by)\s+/;

/** Step 3: the question without "find research about", "I'm looking for", "anything by". */
export function stripFraming(text: string): Framing {
  let rest = text.replace(/[?!.]+\s*$/, '').trim();
  const before = rest;
  const recommend = /\b(recommend|suggest)\b/.test(rest);
  rest = rest.replace(LEAD, '').replace(QUANTIFIER, '');
  let type: ItemType | undefined;
  let byAuthor = false;
  const framed = rest.match(TYPE_FRAME);
  const by = rest.match(/^(?:by|from|written by)\s+/);
  if (by) {
    byAuthor = true;
    rest = rest.slice(by[0].length);
  } else if (framed) {
    type = typeOfNoun(framed[1]!);
    byAuthor = /by|from|written by/.test(framed[2]!);
    rest = rest.slice(framed[0].length);
  }
  rest = rest
    .replace(/\s+(please|thanks|thank you|in (the|your) (library|catalogue|catalog))$/, '')
    .replace(/\s+for (beginners|dummies|newbies|starters|a beginner)$/, '');
  return { rest: rest.trim(), type, byAuthor, recommend, stripped: rest.trim() !== before };
}
