/**
 * The Digi Chatbot's understanding (issue 25, decision 039): one pipeline of small pure steps,
 * each tested on its own: normalise (case, markup, everyday typos), language (German, Spanish,
 * French read into English), framing stripped, the intent classified by a scored matcher over
 * the examples in server/chatbot/intent-examples.ts, the things named extracted (day, ISBN,
 * arXiv id, type, title, author, topic), and follow-ups resolved against the thread. The
 * catalogue's own "did you mean" corrects titles and authors when the search runs.
 *
 * Safety comes first and is not scored: attempts to override the rules and questions about other
 * people's records are refused by the rules of safety.ts, whatever the thread.
 */
import type { ItemType } from '#contract/http/catalogue.ts';
import type { ChatbotTurn } from '#contract/http/chatbot.ts';
import type { MatchedIntent } from '../intent-examples.ts';
import type { Intent } from '../intents.ts';
import { cleanPhrase, readQuestion } from './catalogue-question.ts';
import { classify, type Classified } from './classify.ts';
import { arxivIdOf, dayOf, isbnOf, ordinalOf, typeIn } from './extract.ts';
import { stripFraming, typeOfNoun } from './framing.ts';
import { detectLanguage, glossed, type Language } from './language.ts';
import { normalise, wordsOf } from './normalise.ts';
import { refusal } from './safety.ts';
import { readThread, type Thread, type ThreadItem } from './thread.ts';

/** What the pipeline understood of a question. */
export interface Understanding {
  intent: Intent;
  /** The question's language when it is not English (the reply says it answers in English). */
  language?: Language;
}

/** "I want to reserve Jane Eyre", "can i borrow Dracula": a title after a verb of borrowing. */
const WANTS_ITEM =
  /^(?:ok(?:ay)?,? )?(?:i (?:want|would like|'d like|need|wanna) to|can i|could i|may i|i'd like to|let me|please) (?:reserve|borrow|book|check out|get|take out|pick up) (.+)$/;

/** What names no title after such a verb: "a book", "books", "it", "more than one". */
const GENERIC_OBJECT =
  /^(?:a|an|any|some|more|several|many|multiple|the|my|this|that|these|those|it|them|one|two|three|\d+|up to|books?|copies|a copy)\b(?:\s+(?:books?|copy|copies|physical|printed|book))*\s*(?:at once|for next week|next week|for a week|online|please)?$/;

/** Words that point back: "it", "that one", "those", "the second one". */
const POINTS_BACK =
  /\b(it|that one|this one|that book|this book|those|these|them|the (?:first|second|third|fourth|fifth|last|1st|2nd|3rd) one)\b/;

/** "and on Sunday?", "what about weekdays", "only the ones about graphs": ellipsis. */
const ELLIPSIS =
  /^(?:and|what about|how about|ok(?:ay)? (?:and|what about)|also|only|just|but|or)\b|\binstead\b/;

/** "any others?", "more please", "more": the same again, further. */
const MORE_AGAIN =
  /^(?:any (?:others?|more)|more(?: (?:please|pls|results|of them))?|anything else|show me more|others?)$/;

/** A title from a referent: the second item, the first, or the last. */
function referent(thread: Thread, text: string): ThreadItem | undefined {
  const found = thread.items.filter((item) => !item.missing);
  const ordinal = ordinalOf(text);
  if (ordinal !== undefined) return ordinal < 0 ? thread.items.at(-1) : thread.items[ordinal];
  return found[0] ?? thread.items[0];
}

/** The last question of the thread as understood then (without its own thread beyond it). */
function lastIntent(history: readonly ChatbotTurn[]): Intent | undefined {
  let lastUser = -1;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    if (history[index]!.sender === 'user') {
      lastUser = index;
      break;
    }
  }
  if (lastUser < 0) return undefined;
  const earlier = understand(history[lastUser]!.text, history.slice(0, lastUser)).intent;
  return earlier.kind === 'unknown' || earlier.kind === 'clarify' ? undefined : earlier;
}

const HELP_INTENTS: Partial<Record<MatchedIntent, Intent>> = {
  hours: { kind: 'hours' },
  contact: { kind: 'contact' },
  'account-password': { kind: 'account', topic: 'password' },
  'account-signin': { kind: 'account', topic: 'signin' },
  'account-signup': { kind: 'account', topic: 'signup' },
  'account-password-rules': { kind: 'account', topic: 'password-rules' },
  'account-change-password': { kind: 'account', topic: 'change-password' },
  'reserve-howto': { kind: 'reserve-howto' },
  'circulation-howto': { kind: 'circulation-howto' },
  'my-reservations': { kind: 'my-reservations' },
  'my-loans': { kind: 'my-loans' },
  'my-requests': { kind: 'my-requests' },
  'request-howto': { kind: 'request-howto' },
  'forum-howto': { kind: 'forum-howto' },
  greeting: { kind: 'greeting' },
  thanks: { kind: 'thanks' },
  help: { kind: 'help' },
  'off-topic': { kind: 'unknown' },
};

/** Catalogue intents the rules read with a title, an author or a framed topic. */
const SPECIFIC = new Set<Intent['kind']>([
  'availability',
  'author-of',
  'works-by',
  'recommend',
  'my-reservations',
  'my-requests',
]);

/**
 * A follow-up resolved against the thread: "who wrote it" → author-of the last item; a pointing
 * word with nothing to point at → clarify; undefined when the question stands on its own.
 */
export function resolveFollowUp(
  text: string,
  thread: Thread,
  last: Intent | undefined,
  classified: Classified,
): Intent | undefined {
  // The last reply's items; failing that (a model's reply may not quote them), the title the
  // last question named.
  const asked =
    last && 'title' in last && last.title
      ? { title: last.title, authors: [], missing: false }
      : undefined;
  const item = referent(thread, text) ?? asked;
  const title = item?.title;
  const bare = text.replace(/[?!.]+$/, '').trim();
  const pointsBack = POINTS_BACK.test(bare);

  // More by the same author: "more by her", "what else did he write", "any others by him".
  if (
    /\b(by|from) (her|him|them|that author|the same author|this author)\b|\bwhat else did (he|she|they) write\b|\bother (books|works|titles) (by|from) (him|her|them)\b/.test(
      bare,
    )
  ) {
    const author = thread.author ?? item?.authors[0];
    return author ? { kind: 'works-by', author } : { kind: 'clarify' };
  }
  // Who wrote it / when was it published.
  const asksAuthor =
    /^(?:who (?:wrote|is the author|are the authors|is the writer|was the author)|author)(?: of)?(?: (?:it|that(?: one)?|this(?: one)?|those|them|the (?:first|second|third|last) one))?(?: again)?$/.test(
      bare,
    );
  if (asksAuthor) return title ? { kind: 'author-of', title } : { kind: 'clarify' };
  const asksYear =
    /^(?:when was (?:it|that(?: one)?|this) (?:published|written|released|out|made)|what year (?:did|was) (?:it|that) (?:come out|published|written)|(?:what|which) year)$/.test(
      bare,
    );
  if (asksYear) return title ? { kind: 'year-of', title } : { kind: 'clarify' };

  // Borrowing it: "is it available", "any copies left", "can i reserve it", "ok reserve it".
  if (
    /^(?:ok(?:ay)?,? )?(?:is (?:it|that(?: one)?|this) (?:available|in|free|on the shelf)|any copies(?: left)?|are there copies|(?:can|could|may) i (?:reserve|borrow|book|get|take out) (?:it|that(?: one)?|this(?: one)?|a copy)|reserve it|borrow it|i'?ll (?:take|reserve) it|can i get on the waiting list|(?:how do i |can i )?(?:join|get on) the (?:waiting list|queue))$/.test(
      bare,
    )
  ) {
    if (!title) return { kind: 'clarify' };
    return item?.missing ? { kind: 'request-this', title } : { kind: 'availability', title };
  }
  // Which of those can I borrow.
  if (
    /^which (?:ones?|of (?:those|these|them)) (?:can|could) i (?:borrow|reserve|get|take out)$/.test(
      bare,
    )
  ) {
    const titles = thread.items.filter((thing) => !thing.missing).map((thing) => thing.title);
    return titles.length > 0 ? { kind: 'borrowable', titles } : { kind: 'clarify' };
  }
  // Asking the library to get it: "can you request it for me", "how do i ask you to buy it".
  if (pointsBack && /\b(request|buy|order|purchase|get hold of)\b/.test(bare)) {
    return title ? { kind: 'request-this', title } : { kind: 'clarify' };
  }
  // "tell me about the second one", "the second one".
  if (ordinalOf(bare) !== undefined && /\bone\b|^(?:tell me about|what about|and) /.test(bare)) {
    if (!title) return { kind: 'clarify' };
    const author = item?.authors[0];
    return author ? { kind: 'lookup', title, author } : { kind: 'lookup', title };
  }
  // More like it.
  const likeIt =
    /\b(?:more|something|anything|books?|others?) (?:like|similar to) (?:that|it|this|those|them)(?: one)?\b|^(?:something|anything) similar$|\brecommend (?:me )?(?:something|anything) similar$|^similar (?:ones|books)$|\bwhich should i read (?:after|next)\b|\bsomething (?:shorter|longer|else)\b/.test(
      bare,
    );
  if (likeIt) {
    if (last?.kind === 'topic' || last?.kind === 'recommend-topic') return { ...last };
    if (last?.kind === 'works-by' && thread.items[0]) {
      return { kind: 'recommend', title: thread.items[0].title, withoutItself: true };
    }
    if (item && !item.missing) return { kind: 'recommend', title: item.title };
    if (item?.missing) return { kind: 'recommend', title: item.title };
    return { kind: 'clarify' };
  }
  if (/\brecommend\b.*\blike (?:it|that|this)\b/.test(bare)) {
    return title ? { kind: 'recommend', title } : { kind: 'clarify' };
  }
  // "do i need an account for it", "can i renew it": still the help topic asked about last.
  if (
    pointsBack &&
    !title &&
    last &&
    ['forum-howto', 'reserve-howto', 'request-howto', 'circulation-howto'].includes(last.kind) &&
    classified.intent !== 'off-topic'
  ) {
    return last;
  }
  // The same again: "any others?", "more pls".
  if (MORE_AGAIN.test(bare)) {
    if (last?.kind === 'recommend' || last?.kind === 'recommend-topic') {
      // The same question, without what the last reply already listed.
      const shown = thread.items.filter((thing) => !thing.missing).map((thing) => thing.title);
      return { ...last, shown };
    }
    if (last && ['topic', 'works-by'].includes(last.kind)) return last;
    return last ? undefined : { kind: 'clarify' };
  }
  // Ellipsis: the last question again, changed by what this one adds.
  if (last && (ELLIPSIS.test(bare) || classified.intent === 'unknown')) {
    const day = dayOf(bare);
    if (last.kind === 'hours' && (day || ELLIPSIS.test(bare))) return { kind: 'hours', day };
    if (last.kind === 'contact' && /\b(email|e-mail|phone|number|address|call)\b/.test(bare)) {
      return { kind: 'contact' };
    }
    if (last.kind === 'topic') {
      const type = typeIn(bare);
      const rest = bare
        .replace(ELLIPSIS, '')
        .replace(
          /\b(instead|please|then|the ones?|ones|about|on|papers?|courses?|books?|articles?|research)\b/g,
          ' ',
        )
        .replace(/\s+/g, ' ')
        .trim();
      if (rest === '' && type) return { kind: 'topic', topic: last.topic, type };
      if (rest !== '' && /^only\b/.test(bare)) {
        return { kind: 'topic', topic: `${rest} ${last.topic}`, type: last.type };
      }
      if (rest !== '') return { kind: 'topic', topic: rest, type: type ?? last.type };
    }
  }
  // A pointing word and nothing to point at: ask.
  if (
    !title &&
    /^(?:is it (?:available|in)|who wrote it|(?:can|could) i (?:reserve|borrow) it|(?:more|something) like (?:that|it|this)|the (?:first|second|third|last) one|when was it \w+)$/.test(
      bare,
    )
  ) {
    return { kind: 'clarify' };
  }
  return undefined;
}

/** The parts of the catalogue reply a bare phrase can take: a title, an author or a topic. */
function lookupOrTopic(rule: Intent): Intent {
  if (rule.kind === 'topic' && !rule.type) return { kind: 'lookup', title: rule.topic };
  return rule;
}

/** Step by step: what a question asks, given the conversation before it. */
export function understand(prompt: string, history: readonly ChatbotTurn[] = []): Understanding {
  const normal = normalise(prompt);
  const language = detectLanguage(normal.text);
  const text = (language ? glossed(normal.text, language) : normal.text).trim();
  const result = (intent: Intent): Understanding => (language ? { intent, language } : { intent });
  if (wordsOf(text).length === 0) return result({ kind: 'unknown' });

  // Safety first: rules, never scored, never overridden by the thread.
  const refused = refusal(text);
  if (refused) return result({ kind: refused });
  const rule = readQuestion(text);

  // Identifiers say what they are.
  const arxiv = arxivIdOf(text);
  if (arxiv) return result({ kind: 'arxiv', id: arxiv });
  const isbn = isbnOf(text);
  if (isbn) return result({ kind: 'isbn', isbn });

  const classified = classify(text);
  const strongOffTopic = classified.intent === 'off-topic';
  const last = history.length > 0 ? lastIntent(history) : undefined;
  if (!strongOffTopic) {
    const followUp = resolveFollowUp(text, readThread(history), last, classified);
    if (followUp) return result(followUp);
  }

  const day = dayOf(text);
  const framing = stripFraming(text);
  const matched = classified.intent;
  if (strongOffTopic && !(SPECIFIC.has(rule.kind) && rule.kind !== 'my-reservations')) {
    return result({ kind: 'unknown' });
  }
  if (matched.startsWith('account-')) return result(HELP_INTENTS[matched as MatchedIntent]!);

  // "I want to reserve Jane Eyre": a title after a verb of borrowing.
  const wants = text.replace(/[?!.]+$/, '').match(WANTS_ITEM);
  if (wants && !GENERIC_OBJECT.test(wants[1]!.trim()) && !/\bmy\b/.test(wants[1]!)) {
    return result({ kind: 'availability', title: cleanPhrase(wants[1]!) });
  }
  const isIn = text
    .replace(/[?!.]+$/, '')
    .match(
      /^(?:is|are) (.+?) (?:in|in stock|on the shelf|in the library|in the catalogue|in your library)$/,
    );
  if (isIn && !/^(?:it|the library|you|there|this|that)$/.test(isIn[1]!)) {
    return result({ kind: 'availability', title: cleanPhrase(isIn[1]!) });
  }
  const year = text
    .replace(/[?!.]+$/, '')
    .match(/^(?:when was|what year was) (.+?) (?:published|written|released|first published)$/);
  if (year) return result({ kind: 'year-of', title: cleanPhrase(year[1]!) });
  const about = text
    .replace(/[?!.]+$/, '')
    .match(
      /^(?:tell me about|what is|what's|info on|information about) (?!the library\b|you\b)(.+)$/,
    );

  if (matched === 'my-loans') return result({ kind: 'my-loans' });
  // "can i renew my loan", "how will i know if my request was accepted": rules, not records.
  if (
    (rule.kind === 'my-reservations' || rule.kind === 'my-requests') &&
    ['circulation-howto', 'request-howto'].includes(matched) &&
    /^(can|how|will|when|what if)\b/.test(text)
  ) {
    return result(HELP_INTENTS[matched as MatchedIntent]!);
  }
  const similar = text
    .replace(/[?!.]+$/, '')
    .match(/^similar (?:books?|novels?|titles?|reads?|ones) (?:to|as) (.+)$/);
  if (similar) return result({ kind: 'recommend', title: cleanPhrase(similar[1]!) });
  if (SPECIFIC.has(rule.kind)) {
    // "cancel my reservation" is about one's own: the rules agree with the matcher.
    return result(rule);
  }
  if (matched === 'hours') return result({ kind: 'hours', day });
  if (matched !== 'unknown' && matched !== 'catalogue' && matched !== 'recommend-general') {
    return result(HELP_INTENTS[matched]!);
  }
  if (about && matched !== 'recommend-general' && wordsOf(about[1]!).length <= 8) {
    return result({ kind: 'lookup', title: cleanPhrase(about[1]!) });
  }
  const bare = (phrase: string) => wordsOf(phrase).join(' ');
  const framedTopic = rule.kind === 'topic' && bare(rule.topic) !== bare(text);
  if (framedTopic && matched !== 'recommend-general') return result(rule);
  if (framing.type && framing.rest && !framing.byAuthor && matched !== 'recommend-general') {
    return result({ kind: 'topic', topic: framing.rest, type: framing.type });
  }
  if (framedTopic && classified.score < 0.6) return result(rule);
  if (matched === 'recommend-general' || (framing.recommend && rule.kind !== 'topic')) {
    return result({
      kind: 'recommend-topic',
      topic: framing.rest,
      ...(framing.type ? { type: framing.type } : typeOfTopic(framing.rest)),
    });
  }
  if (rule.kind === 'hours') return result({ kind: 'hours', day });
  if (rule.kind === 'topic') {
    return result(
      framing.stripped && framing.rest
        ? { kind: 'lookup', title: framing.rest }
        : lookupOrTopic(rule),
    );
  }
  if (rule.kind !== 'unknown') return result(rule);
  if (
    framing.stripped &&
    framing.rest &&
    wordsOf(framing.rest).length <= 6 &&
    matched === 'catalogue'
  ) {
    return result(
      framing.byAuthor
        ? { kind: 'works-by', author: framing.rest, type: framing.type }
        : framing.type
          ? { kind: 'topic', topic: framing.rest, type: framing.type }
          : { kind: 'lookup', title: framing.rest },
    );
  }
  return result({ kind: 'unknown' });
}

/** The type a topic's own last word names ("classic romance novel" → book). */
function typeOfTopic(topic: string): { type?: ItemType } {
  const type = typeOfNoun(topic.split(' ').at(-1) ?? '');
  return type ? { type } : {};
}
