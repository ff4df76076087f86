import type { Kysely } from 'kysely';
import { searchQuerySchema, type ItemType } from '#contract/http/catalogue.ts';
import type { ChatbotLink } from '#contract/http/chatbot.ts';
import { REQUEST_STATUS_LABELS } from '#contract/http/requests.ts';
import { ACTIVE_RESERVATIONS_MAX } from '#contract/http/reservations.ts';
import {
  RESERVATION_DAYS_AHEAD,
  RESERVATION_HOLD_HOURS,
  RESERVATION_TIME_SLOTS,
} from '#contract/limits.ts';
import { OFFER_HOURS, QUEUED_HOLDS_MAX } from '#contract/http/holds.ts';
import { LOAN_RENEWALS_MAX } from '#contract/http/loans.ts';
import { PASSWORD_MIN_LENGTH } from '#contract/limits.ts';
import { reserveBookPath, ROUTES } from '#contract/routes.ts';
import type { UserRow } from '../users/store.ts';
import type { QueryMeaning } from '../catalogue/meaning.ts';
import type { Related } from '../catalogue/related.ts';
import { searchCatalogue, type SearchRow } from '../catalogue/search.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { formatDate } from '../reservations/calendar.ts';
import {
  expireHolds,
  freeCopies,
  reservableBooks,
  reservationQuery,
} from '../reservations/holds.ts';
import type { AccountTopic, Intent } from './intents.ts';
import {
  LIKE_SAME_AUTHOR_MAX,
  RECOMMENDATIONS_MAX,
  recommend as recommendItems,
  workKey,
  type Recommendation,
} from './recommend.ts';
import type { Day } from './pipeline/extract.ts';

/** A built-in answer: its text, the links we made for it, and the facts it rests on. */
export interface Reply {
  text: string;
  links: ChatbotLink[];
  /** What the library's own data says, for a model to write from (empty: nothing to ground). */
  facts: string[];
  /** The assistant could not answer (its "not sure" reply): counted for library insights. */
  unanswered?: true;
}

/** What the assistant reads from. */
export interface AssistantContext {
  db: Kysely<Database>;
  config: Config;
  now: () => Date;
  /**
   * The app's search by meaning (its one embedder, server/catalogue/meaning.ts), asked per
   * question: undefined while the database cannot search by meaning, and topics go by words.
   */
  meaning: () => QueryMeaning | undefined;
  /** "More like this" for an item, as `GET /api/items/:id/related` lists it. */
  related: (item: Pick<SearchRow, 'id' | 'authors' | 'subjects'>) => Promise<Related>;
}

const TYPE_NAMES: Record<ItemType, [string, string]> = {
  book: ['book', 'books'],
  paper: ['research paper', 'research papers'],
  course: ['course material', 'course materials'],
};

const LINKS = {
  reserve: { label: 'Reserve a book', href: ROUTES.reservation },
  request: { label: 'Request a resource', href: ROUTES.resourceRequest },
  forum: { label: 'Discussion forum', href: ROUTES.discussionForum },
  search: { label: 'Search the library', href: ROUTES.librarySearch },
  signIn: { label: 'Sign in', href: ROUTES.signIn },
  signUp: { label: 'Sign up', href: ROUTES.signUp },
  forgotPassword: { label: 'Reset your password', href: ROUTES.forgotPassword },
  account: { label: 'My account', href: ROUTES.account },
} satisfies Record<string, ChatbotLink>;

const itemLink = (row: { id: string; title: string }): ChatbotLink => ({
  label: row.title,
  href: `${ROUTES.librarySearch}?item=${row.id}`,
});

/** "Reserve": the reservation screen with the book chosen; nothing is reserved until they confirm. */
const reserveLink = (row: { id: string; title: string }): ChatbotLink => ({
  label: `Reserve “${row.title}”`,
  href: reserveBookPath(row.id),
});

/** "Request this": the request form with the title (and type) filled in, sent only by its button. */
export function requestThisLink(title: string, type: ItemType = 'book'): ChatbotLink {
  const query = new URLSearchParams({ title: title.slice(0, 200), type });
  return { label: `Request “${title.slice(0, 80)}”`, href: `${ROUTES.resourceRequest}?${query}` };
}

/** `Title` by Author (Year). */
function describe(row: Pick<SearchRow, 'title' | 'authors' | 'year'>): string {
  const by = row.authors.length > 0 ? ` by ${row.authors.slice(0, 3).join(', ')}` : '';
  return `“${row.title}”${by}${row.year ? ` (${row.year})` : ''}`;
}

/** Letters and digits only, for comparing a title someone typed with the catalogue's. */
const normal = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const MINOR_WORDS = ['the', 'a', 'an', 'of', 'and'];
const significant = (text: string) =>
  normal(text)
    .split(' ')
    .filter((word) => word.length > 1 && !MINOR_WORDS.includes(word));

/** How well a catalogue title answers the title someone typed (1 = all their words are in it). */
function titleScore(typed: string, title: string): number {
  const wanted = significant(typed);
  if (wanted.length === 0) return 0;
  const have = new Set(normal(title).split(' '));
  return wanted.filter((word) => have.has(word)).length / wanted.length;
}

/**
 * Orders candidates for a typed title: most of the typed words first; among equals, a title
 * whose main part (before a colon, semicolon or bracket) is what was typed, then the one with
 * the fewest words beyond it. "sapiens" is "Sapiens: A Brief History…", not "Simon vs. the Homo
 * Sapiens Agenda"; "the hunger games" is the novel, not "The Hunger Games Tribute Guide".
 */
function bestTitles<Row extends { title: string }>(
  typed: string,
  rows: readonly Row[],
  threshold = 0.6,
): Row[] {
  const wanted = significant(typed).join(' ');
  return rows
    .map((row, index) => {
      const main = significant(row.title.split(/[:;([]/)[0] ?? '').join(' ');
      return {
        row,
        index,
        score: titleScore(typed, row.title),
        exact: main === wanted ? 1 : 0,
        extra: significant(row.title).length,
      };
    })
    .filter((candidate) => candidate.score >= threshold)
    .sort(
      (a, b) => b.score - a.score || b.exact - a.exact || a.extra - b.extra || a.index - b.index,
    )
    .map((candidate) => candidate.row);
}

/**
 * The catalogue search, as `GET /api/search` runs it. `byMeaning` ranks by meaning too (hybrid),
 * where the database can: a topic is described, not named. Looking up a title or an author goes
 * by words alone, which costs no embedding.
 */
async function search(
  context: AssistantContext,
  query: { q?: string; author?: string; type?: ItemType; pageSize?: number; byMeaning?: boolean },
) {
  const meaning = query.byMeaning ? context.meaning() : undefined;
  return searchCatalogue(
    context.db,
    searchQuerySchema.parse({
      q: (query.q ?? '').slice(0, 200),
      author: query.author?.slice(0, 100),
      type: query.type,
      pageSize: query.pageSize ?? 5,
    }),
    { now: context.now(), ...(meaning ? { meaning } : {}) },
  );
}

/** Where to turn when the assistant cannot answer: the request form and the library itself. */
function notSure(config: Config, lead: string, title?: string): Reply {
  const { library } = config;
  return {
    text: `${lead} If the library does not have what you need, you can ask for it with the request form, or contact the library at ${library.phone} or ${library.email}.`,
    links: title ? [requestThisLink(title), LINKS.request] : [LINKS.request],
    facts: [],
    unanswered: true,
  };
}

/**
 * Answers from the library's own data: its configuration, the catalogue (by running the real
 * search) and, for a signed-in person, their own reservations and requests, never anyone else's.
 */
export async function builtInReply(
  context: AssistantContext,
  user: UserRow | null,
  intent: Intent,
): Promise<Reply> {
  const { library } = context.config;
  switch (intent.kind) {
    case 'injection':
      return {
        text: 'I can’t change how I work or share my instructions. I can help with the library: opening hours, finding books and papers, reservations, requests and the forum.',
        links: [LINKS.search],
        facts: [],
      };
    case 'others-data':
      return {
        text: 'I can only show you your own reservations and requests; other people’s records are private.',
        links: [],
        facts: [],
      };
    case 'greeting':
      return {
        text: `Hello! I’m the ${library.name} assistant. Ask me about opening hours, books and papers in the catalogue, reserving a copy, requesting something we don’t have, or your own reservations and requests.`,
        links: [],
        facts: [],
      };
    case 'thanks':
      return { text: 'You’re welcome! Anything else I can help with?', links: [], facts: [] };
    case 'help':
      return {
        text: `I answer from ${library.name}’s own data. Try: “When are you open?”, “Do you have books on machine learning?”, “Who wrote Frankenstein?”, “Papers by Hinton”, “Something like Frankenstein”, “Is Pride and Prejudice available to reserve?”, “What are my reservations?” or “What happened to my request?”.`,
        links: [LINKS.search],
        facts: [],
      };
    case 'hours': {
      const hours = [...library.hours, library.hoursNote];
      const lead = hoursLead(library.hours, library.hoursNote, intent.day);
      return {
        text: `${lead}${library.name} opening hours:\n${library.hours.join('\n')}\n${library.hoursNote}`,
        links: [],
        facts: [`Opening hours: ${hours.join('; ')}`],
      };
    }
    case 'contact':
      return {
        text: `You can reach ${library.name} at ${library.address}. Phone: ${library.phone}. E-mail: ${library.email}.`,
        links: [],
        facts: [
          `Address: ${library.address}`,
          `Phone: ${library.phone}`,
          `E-mail: ${library.email}`,
        ],
      };
    case 'reserve-howto': {
      const text = [
        'To reserve a physical book:',
        '1. Open the Offline Book Service and select a book that is available.',
        `2. Choose a day (today or the next ${RESERVATION_DAYS_AHEAD - 1} days) and one of the pickup slots: ${RESERVATION_TIME_SLOTS.join(', ')}.`,
        '3. Confirm. You get a reservation id and an e-mail with a calendar entry.',
        `We hold the copy for ${RESERVATION_HOLD_HOURS} hours from the start of your slot. You can hold up to ${ACTIVE_RESERVATIONS_MAX} reservations at a time and cancel them from the same screen.`,
      ].join('\n');
      return { text, links: [LINKS.reserve], facts: [text] };
    }
    case 'request-howto': {
      const text = `If the library doesn’t have a book, journal, article or course material you need, fill in the request form with its title (and a description if it helps). If someone has already asked for it, add your support to their request instead. Faculty and librarians review requests: pending, accepted, ordered, then available, or rejected with a reason. Sign in to see the status of each of your requests on the request screen and your home page.`;
      return { text, links: [LINKS.request], facts: [text] };
    }
    case 'forum-howto': {
      const text =
        'The discussion forum has public chat rooms. Choose a username, then join a room or create one. Messages are checked for abusive language: a room where it is detected is restricted until its creator or a librarian lifts it. The creator can close their room. You need to be signed in to take part: sign up first if you have no account.';
      return { text, links: [LINKS.forum], facts: [text] };
    }
    case 'my-reservations':
      return myReservations(context, user);
    case 'my-requests':
      return myRequests(context, user);
    case 'author-of':
      return authorOf(context, intent.title);
    case 'works-by':
      return worksBy(context, intent.author, intent.type);
    case 'availability':
      return availability(context, intent.title);
    case 'topic':
      return topic(context, intent.topic, intent.type);
    case 'recommend':
      return recommendLike(context, intent.title, intent.withoutItself === true, intent.shown);
    case 'unknown':
      return notSure(context.config, 'I’m not sure I can answer that.');
    case 'clarify':
      return {
        text: 'What do you mean? Tell me which book or item you’re asking about, for example: who wrote Frankenstein?',
        links: [],
        facts: [],
      };
    case 'account':
      return account(context.config, user, intent.topic);
    case 'circulation-howto': {
      const text = [
        `A loan lasts ${library.loanDays} days, and you can renew it up to ${LOAN_RENEWALS_MAX} times (twice) from your loans.`,
        `When every copy of a book is taken, join its waiting list from the book’s page: you can be on up to ${QUEUED_HOLDS_MAX} waiting lists at a time.`,
        `When a copy comes free for you, it is held for ${OFFER_HOURS} hours for you to choose a pickup slot.`,
      ].join('\n');
      return { text, links: [LINKS.reserve, LINKS.search], facts: [text] };
    }
    case 'my-loans':
      return myLoans(context, user);
    case 'lookup':
      return lookup(context, intent.title, intent.author);
    case 'year-of':
      return yearOf(context, intent.title);
    case 'isbn':
      return byIdentifier(context, 'isbn', intent.isbn, `ISBN ${intent.isbn}`);
    case 'arxiv':
      return byIdentifier(context, 'arxiv_id', intent.id, `arXiv ${intent.id}`);
    case 'borrowable':
      return borrowable(context, intent.titles);
    case 'recommend-topic':
      return recommendOnTopic(context, intent.topic, intent.type, intent.shown ?? []);
    case 'request-this': {
      const text = `I can’t request “${intent.title}” for you myself, but the request form is ready with it filled in: check it and send it.`;
      return { text, links: [requestThisLink(intent.title), LINKS.request], facts: [text] };
    }
  }
}

const WEEKDAY_NAMES = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
];

/** The line of the hours that answers a day asked about, before the whole week. */
function hoursLead(hours: readonly string[], note: string, day: Day | undefined): string {
  if (!day) return '';
  if (day === 'holidays') return `${note}\n`;
  const lineFor = (name: string) => {
    const index = WEEKDAY_NAMES.indexOf(name);
    return hours.find((line) => {
      const span = line.toLowerCase().match(/^(\w+)(?:\s*-\s*(\w+))?:/);
      if (!span) return false;
      const from = WEEKDAY_NAMES.indexOf(span[1]!);
      const to = span[2] ? WEEKDAY_NAMES.indexOf(span[2]) : from;
      return from >= 0 && to >= 0 && index >= from && index <= to;
    });
  };
  if (day === 'weekend') {
    const lines = [lineFor('saturday'), lineFor('sunday')].filter(Boolean);
    return lines.length > 0 ? `At the weekend: ${lines.join('; ')}.\n` : '';
  }
  if (day === 'weekdays') return lineFor('monday') ? `On weekdays: ${lineFor('monday')}.\n` : '';
  if (day === 'today' || day === 'tomorrow') return '';
  const line = lineFor(day);
  return line ? `${line}.\n` : '';
}

/** Account help: the screens that do it, never an action taken for them. */
function account(config: Config, user: UserRow | null, topic: AccountTopic): Reply {
  const { library } = config;
  const google = 'You can also use “Continue with Google” on the sign-in and sign-up screens.';
  const replies: Record<AccountTopic, [string, ChatbotLink[]]> = {
    password: [
      `Forgot your password? Choose “Forgot password?” on the sign-in screen and enter your e-mail: we send you a link to reset it. If the e-mail does not arrive (check your spam folder), contact the library at ${library.phone} or ${library.email}.`,
      [LINKS.forgotPassword, LINKS.signIn],
    ],
    signin: [
      `Sign in on the sign-in screen with your e-mail and password. ${google} Forgot your password? Reset it from the same screen.`,
      [LINKS.signIn, LINKS.forgotPassword],
    ],
    signup: [
      `Create an account on the sign-up screen as a student or as faculty (lecturers and teaching staff), with your e-mail and a password of at least ${PASSWORD_MIN_LENGTH} characters. ${google} Librarian accounts are not chosen at sign-up: the library gives that role to its staff.`,
      [LINKS.signUp, LINKS.signIn],
    ],
    'password-rules': [
      `A password needs at least ${PASSWORD_MIN_LENGTH} characters. You can change yours on My account, or reset a forgotten one from the sign-in screen.`,
      [LINKS.account, LINKS.forgotPassword],
    ],
    'change-password': [
      user
        ? 'Change your password on My account: enter your current password, then the new one.'
        : 'Sign in, then change your password on My account. Forgot it? Reset it from the sign-in screen.',
      user ? [LINKS.account] : [LINKS.signIn, LINKS.account, LINKS.forgotPassword],
    ],
  };
  const [text, links] = replies[topic];
  return { text, links, facts: [text] };
}

async function myLoans(context: AssistantContext, user: UserRow | null): Promise<Reply> {
  if (!user) {
    return { text: 'Sign in to see your loans.', links: [LINKS.signIn], facts: [] };
  }
  const rows = await context.db
    .selectFrom('loans as l')
    .innerJoin('items as i', 'i.id', 'l.item_id')
    .select(['i.title', 'l.due_at'])
    .where('l.user_id', '=', user.id)
    .where('l.returned_at', 'is', null)
    .orderBy('l.due_at')
    .limit(20)
    .execute();
  if (rows.length === 0) {
    return {
      text: 'You have no books on loan right now.',
      links: [LINKS.reserve],
      facts: ['The user has no loans.'],
    };
  }
  const lines = rows.map(
    (row) => `• “${row.title}”, due ${formatDate(new Date(row.due_at).toISOString().slice(0, 10))}`,
  );
  const text = `You have ${rows.length} book${rows.length === 1 ? '' : 's'} on loan:\n${lines.join('\n')}`;
  return { text, links: [LINKS.reserve], facts: [text] };
}

/** One item, plainly: who wrote it, when, whether a copy is free, and its links. */
async function describeItem(
  context: AssistantContext,
  row: Pick<SearchRow, 'id' | 'title' | 'authors' | 'year' | 'kind'>,
): Promise<Reply> {
  const reservable = (await reservableBooks(context.db, context.now())).rows.find(
    (book) => book.id === row.id,
  );
  const free = reservable ? freeCopies(reservable) : 0;
  const where = reservable
    ? free > 0
      ? ` ${free} of ${reservable.copies} ${reservable.copies === 1 ? 'copy is' : 'copies are'} free to reserve.`
      : ' Every copy is reserved or on loan right now: you can join the waiting list from its page.'
    : '';
  const text = `Yes, the catalogue has ${describe(row)} (${TYPE_NAMES[row.kind][0]}).${where}`;
  return {
    text,
    links: [itemLink(row), ...(reservable && free > 0 ? [reserveLink(row)] : [])],
    facts: [`Catalogue: ${describe(row)}`, text],
  };
}

/**
 * A bare phrase ("the hobbit", "jules verne", "tell me about moby dick"): a title when one is
 * called just that, an author when the catalogue has one by that name, a topic otherwise.
 */
async function lookup(context: AssistantContext, phrase: string, author?: string): Promise<Reply> {
  if (!phrase) return notSure(context.config, 'What are you looking for?');
  const wanted = significant(phrase).join(' ');
  const rows = await findTitle(context, phrase);
  // Called just that: the whole title, or the title before a series note ("(The Hunger Games,
  // #1)"); a subtitle after a colon makes another book ("Harry Potter: Film Wizardry").
  const calledSo = rows.filter((row) => {
    const main = row.title.split(/[;([]/)[0] ?? '';
    return significant(main).join(' ') === wanted && !main.includes(':');
  });
  // From the thread, the edition the conversation named ("H. G. Wells", not "H.G. Wells").
  const exact = (author && calledSo.find((row) => row.authors.includes(author))) || calledSo[0];
  if (exact) return describeItem(context, exact);
  const words = significant(phrase);
  if (words.length >= 1 && words.length <= 4) {
    const byAuthor = await search(context, { author: phrase, pageSize: 5 });
    const named = byAuthor.rows.some((row) =>
      row.authors.some((name) => words.every((word) => normal(name).split(' ').includes(word))),
    );
    if (named) return worksBy(context, phrase, undefined);
  }
  return topic(context, phrase, undefined);
}

async function yearOf(context: AssistantContext, title: string): Promise<Reply> {
  const row = (await findTitle(context, title))[0];
  if (!row) return notSure(context.config, `I couldn’t find “${title}” in the catalogue.`, title);
  const text = row.year
    ? `${describe({ ...row, year: null })} was published in ${row.year}.`
    : `The catalogue does not give a year for ${describe(row)}.`;
  return { text, links: [itemLink(row)], facts: [`Catalogue: ${describe(row)}`] };
}

/** An item by its ISBN or arXiv id, exactly: the identifier is no search. */
async function byIdentifier(
  context: AssistantContext,
  column: 'isbn' | 'arxiv_id',
  value: string,
  name: string,
): Promise<Reply> {
  const row = await context.db
    .selectFrom('items')
    .select(['id', 'title', 'authors', 'year', 'kind'])
    .where(column, '=', value)
    .where('withdrawn_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (!row) {
    return notSure(context.config, `I couldn’t find ${name} in the catalogue.`);
  }
  return describeItem(context, row);
}

/** Which of the titles named can be reserved now, each with its "Reserve" link. */
async function borrowable(context: AssistantContext, titles: readonly string[]): Promise<Reply> {
  const reservable = (await reservableBooks(context.db, context.now())).rows;
  const free = titles
    .map((title) => bestTitles(title, reservable, 1)[0])
    .filter((row) => row !== undefined && freeCopies(row) > 0)
    .filter((row, index, all) => all.findIndex((other) => other!.id === row!.id) === index)
    .slice(0, 5) as typeof reservable;
  if (free.length === 0) {
    return {
      text: 'None of those has a physical copy free to reserve right now. You can join a waiting list from a book’s page.',
      links: [LINKS.reserve],
      facts: [],
    };
  }
  const lines = free.map(
    (row) =>
      `• “${row.title}”${row.authors.length > 0 ? ` by ${row.authors.join(', ')}` : ''}: ${freeCopies(row)} of ${row.copies} free`,
  );
  const text = `You can reserve:\n${lines.join('\n')}\nPick a day and a pickup slot on the reservation screen.`;
  return {
    text,
    links: [...free.map(reserveLink), ...free.map(itemLink)].slice(0, 10),
    facts: [text],
  };
}

async function myReservations(context: AssistantContext, user: UserRow | null): Promise<Reply> {
  if (!user) {
    return {
      text: 'Sign in to see your reservations.',
      links: [LINKS.signIn, LINKS.reserve],
      facts: [],
    };
  }
  await expireHolds(context.db, context.now(), { userId: user.id });
  const rows = await reservationQuery(context.db, context.now())
    .where('r.user_id', '=', user.id)
    .where('r.status', '=', 'active')
    .orderBy('r.slot_starts_at')
    .execute();
  if (rows.length === 0) {
    return {
      text: 'You have no active reservations.',
      links: [LINKS.reserve],
      facts: ['The user has no active reservations.'],
    };
  }
  const lines = rows.map(
    (row) => `• ${row.id}: “${row.title}”, ${formatDate(row.pickup_date)}, ${row.time_slot}`,
  );
  const text = `You have ${rows.length} active reservation${rows.length === 1 ? '' : 's'}:\n${lines.join('\n')}\nYou can see or cancel them on the Offline Book Service screen.`;
  return { text, links: [{ label: 'Your reservations', href: ROUTES.reservation }], facts: [text] };
}

async function myRequests(context: AssistantContext, user: UserRow | null): Promise<Reply> {
  if (!user) {
    return {
      text: 'Sign in to see your requests.',
      links: [LINKS.signIn, LINKS.request],
      facts: [],
    };
  }
  const rows = await context.db
    .selectFrom('resource_requests')
    .select(['title', 'status', 'status_reason'])
    .where('requester_id', '=', user.id)
    .orderBy('created_at', 'desc')
    .limit(10)
    .execute();
  if (rows.length === 0) {
    return {
      text: 'You haven’t requested any resources yet.',
      links: [LINKS.request],
      facts: ['The user has no requests.'],
    };
  }
  const lines = rows.map(
    (row) =>
      `• “${row.title}”: ${REQUEST_STATUS_LABELS[row.status]}${row.status_reason ? ` (${row.status_reason})` : ''}`,
  );
  const text = `Your requests, newest first:\n${lines.join('\n')}`;
  return { text, links: [{ label: 'Your requests', href: ROUTES.resourceRequest }], facts: [text] };
}

/**
 * The catalogue rows best matching a typed title, searching again with the search's own
 * "did you mean" when the words as typed find nothing ("frankenstien").
 */
async function findTitle(context: AssistantContext, title: string): Promise<SearchRow[]> {
  const result = await search(context, { q: title, pageSize: 20 });
  const found = bestTitles(title, result.rows);
  // The search may have corrected the words itself ("Showing results for …").
  if (found.length === 0 && result.correctedQuery) {
    return bestTitles(result.correctedQuery, result.rows);
  }
  if (found.length > 0 || !result.suggestion) return found;
  const corrected = await search(context, { q: result.suggestion, pageSize: 20 });
  return bestTitles(result.suggestion, corrected.rows);
}

async function authorOf(context: AssistantContext, title: string): Promise<Reply> {
  if (!title) return notSure(context.config, 'Which title do you mean?');
  const row = (await findTitle(context, title))[0];
  if (!row) {
    return notSure(context.config, `I couldn’t find “${title}” in the catalogue.`, title);
  }
  const text =
    row.authors.length > 0
      ? `${describe({ ...row, authors: [] })} is by ${row.authors.join(', ')}.`
      : `The catalogue does not list an author for ${describe(row)}.`;
  return { text, links: [itemLink(row)], facts: [`Catalogue: ${describe(row)}`] };
}

async function worksBy(
  context: AssistantContext,
  author: string,
  type: ItemType | undefined,
): Promise<Reply> {
  if (!author) return notSure(context.config, 'Which author do you mean?');
  let result = await search(context, { author, type, pageSize: 50 });
  if (result.rows.length === 0) {
    // "khaled hoseini": the catalogue's "did you mean" knows the name's spelling.
    // "h g wells": the catalogue writes initials with full stops.
    for (const variant of initialsVariants(author)) {
      const retried = await search(context, { author: variant, type, pageSize: 50 });
      if (retried.rows.length > 0) {
        result = retried;
        author = variant;
        break;
      }
    }
  }
  if (result.rows.length === 0) {
    const probe = await search(context, { q: author, pageSize: 1 });
    const corrected = probe.correctedQuery ?? probe.suggestion;
    if (corrected && corrected !== author) {
      const retried = await search(context, { author: corrected, type, pageSize: 50 });
      if (retried.rows.length > 0) {
        result = retried;
        author = corrected;
      }
    }
  }
  const kind = type ? TYPE_NAMES[type][1] : 'items';
  if (result.rows.length === 0) {
    return notSure(context.config, `I couldn’t find any ${kind} by ${author} in the catalogue.`);
  }
  // The author's own works before those they only contributed to, and copies on our shelves
  // (which can be reserved) before the rest; otherwise the search's order.
  const typed = normal(author);
  const leads = (row: SearchRow) => (normal(row.authors[0] ?? '').includes(typed) ? 1 : 0);
  const shelved = new Set(
    (await reservableBooks(context.db, context.now())).rows.map((book) => book.id as string),
  );
  const rows = result.rows
    .map((row, index) => ({ row, index }))
    .sort(
      (a, b) =>
        Number(shelved.has(b.row.id)) - Number(shelved.has(a.row.id)) ||
        leads(b.row) - leads(a.row) ||
        a.index - b.index,
    )
    .slice(0, 5)
    .map(({ row }) => row);
  // The name as the catalogue spells it ("tolkien" → J.R.R. Tolkien).
  const name =
    rows.flatMap((row) => row.authors).find((candidate) => normal(candidate).includes(typed)) ??
    author;
  const lines = rows.map((row) => `• ${describe(row)}`);
  const more =
    result.total > rows.length
      ? ` (showing ${rows.length} of ${result.totalCapped ? 'more than ' : ''}${result.total})`
      : '';
  const text = `${kind[0]!.toUpperCase()}${kind.slice(1)} by ${name} in the catalogue${more}:\n${lines.join('\n')}`;
  return {
    text,
    links: rows.map(itemLink),
    facts: rows.map((row) => `Catalogue: ${describe(row)}`),
  };
}

async function availability(context: AssistantContext, title: string): Promise<Reply> {
  if (!title) return notSure(context.config, 'Which book do you mean?');
  const reservable = (await reservableBooks(context.db, context.now())).rows;
  const match = bestTitles(title, reservable)[0];
  if (match) {
    const free = freeCopies(match);
    const name = describe({ title: match.title, authors: match.authors, year: null });
    const text =
      free > 0
        ? `Yes: ${free} of ${match.copies} ${match.copies === 1 ? 'copy' : 'copies'} of ${name} ${free === 1 ? 'is' : 'are'} free to reserve. Pick a day and a 30-minute slot; we hold it for ${RESERVATION_HOLD_HOURS} hours.`
        : `Not right now: every copy of ${name} is reserved or on loan. You can join the waiting list from its page, and the next free copy is offered to you; or choose another book.`;
    return {
      text,
      links:
        free > 0
          ? [reserveLink(match), itemLink(match), LINKS.reserve]
          : [{ ...itemLink(match), label: `Join the waiting list: ${match.title}` }, LINKS.reserve],
      facts: [text],
    };
  }
  const held = (await findTitle(context, title))[0];
  if (held) {
    const text = `${describe(held)} is in the catalogue, but the library has no physical copy to reserve.${held.page_count > 0 ? ' You can read it online.' : ''} If you need a printed copy, request one.`;
    return { text, links: [itemLink(held), LINKS.request], facts: [text] };
  }
  return notSure(context.config, `I couldn’t find “${title}” in the catalogue.`, title);
}

async function topic(
  context: AssistantContext,
  subject: string,
  type: ItemType | undefined,
): Promise<Reply> {
  if (!subject) return notSure(context.config, 'What subject are you looking for?');
  let result = await search(context, { q: subject, type, byMeaning: true });
  let searched = result.correctedQuery ?? subject;
  if (result.rows.length === 0 && result.suggestion) {
    searched = result.suggestion;
    result = await search(context, { q: result.suggestion, type, byMeaning: true });
  }
  // None of that type, or only some of the words ("books about machine learning" finding books
  // about a machine): other types on the whole subject are better, and say so.
  const partial = result.partialMatch === true || result.correctedQuery !== undefined;
  if (type && (result.rows.length === 0 || partial)) {
    const anyType = await search(context, { q: subject, byMeaning: true });
    const whole = !anyType.partialMatch && anyType.correctedQuery === undefined;
    if (anyType.rows.length > 0 && (result.rows.length === 0 || whole)) {
      const lines = anyType.rows.map((row) => `• ${describe(row)} (${TYPE_NAMES[row.kind][0]})`);
      return {
        text: `I couldn’t find any ${TYPE_NAMES[type][1]} about “${subject}”, but the catalogue has:\n${lines.join('\n')}`,
        links: [...anyType.rows.map(itemLink), LINKS.request],
        facts: anyType.rows.map((row) => `Catalogue: ${describe(row)}`),
      };
    }
  }
  const kind = type ? TYPE_NAMES[type][1] : 'items';
  if (result.rows.length === 0) {
    return notSure(
      context.config,
      `I couldn’t find any ${kind} about “${subject}” in the catalogue.`,
    );
  }
  const lines = result.rows.map((row) => `• ${describe(row)}`);
  const lead =
    searched === subject
      ? `Yes, here are ${kind} about “${subject}”`
      : `I found nothing for “${subject}”; here are ${kind} for “${searched}”`;
  const count =
    result.total > result.rows.length
      ? ` (the best ${result.rows.length} of ${result.totalCapped ? 'more than ' : ''}${result.total})`
      : '';
  return {
    text: `${lead}${count}:\n${lines.join('\n')}`,
    links: [
      ...result.rows.map(itemLink),
      {
        label: `All results for “${searched}”`,
        href: `${ROUTES.librarySearch}?q=${encodeURIComponent(searched)}${type === 'paper' ? '&tab=research' : type === 'course' ? '&tab=courses' : ''}`,
      },
    ],
    facts: result.rows.map((row) => `Catalogue: ${describe(row)}`),
  };
}

/** Editions of the title asked about whose recommendations are asked and merged. */
const EDITIONS_ASKED = 3;

/** An author's name with letters and digits only: "H. G. Wells" and "H.G. Wells" are one. */
const authorKey = (name: string) => normal(name).replace(/ /g, '');

/**
 * Why an item is like the one asked about, in the words of the item page's "More like this"
 * (server/catalogue/related.ts): "Similar subject: gothic", "Same author: H. G. Wells".
 */
export function likeReason(reason: string): string {
  return reason.replace(/^Shares the subjects? /, 'Similar subject: ');
}

/**
 * The ids of the items a reply listed ("any others?"), from the titles it quoted: every bot reply
 * quotes the catalogue's own title (`describe`), which the thread step reads back.
 */
async function shownIds(context: AssistantContext, titles: readonly string[]): Promise<string[]> {
  if (titles.length === 0) return [];
  const rows = await context.db
    .selectFrom('items')
    .select('id')
    .where('title', 'in', titles.slice(0, 20))
    .where('withdrawn_at', 'is', null)
    .limit(100)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * "Something like X": finds X as a title is looked up (a known-item search), then asks
 * server/chatbot/recommend.ts for items like it (same author and series, shared subjects, near by
 * meaning, popularity), each with why; never X nor another edition of it, nor what was `shown`.
 */
async function recommendLike(
  context: AssistantContext,
  title: string,
  withoutItself = false,
  shown: readonly string[] = [],
): Promise<Reply> {
  if (!title) return notSure(context.config, 'Which title do you mean?');
  const found = await findTitle(context, title);
  const first = found[0];
  if (!first) {
    return {
      text: `I couldn’t find “${title}” in the catalogue, so I can’t tell what is like it. Check the spelling, or ask for its subject instead (for example “books about science fiction”). If the library does not have what you need, you can ask for it with the request form.`,
      links: [LINKS.search, LINKS.request],
      facts: [],
    };
  }
  const firstAuthors = new Set(first.authors.map(authorKey));
  /** Another edition of X: all of the typed title's words, and one of its authors. */
  const isEdition = (row: Pick<SearchRow, 'title' | 'authors'>) =>
    titleScore(title, row.title) === 1 &&
    (firstAuthors.size === 0 || row.authors.some((name) => firstAuthors.has(authorKey(name))));
  const editions = [first, ...found.slice(1).filter(isEdition)];
  const exclude = [...editions.map((edition) => edition.id), ...(await shownIds(context, shown))];
  // The catalogue can hold X more than once (the demo's copy with its subjects, an imported
  // edition without): each edition's list is asked, and they are merged in turn.
  const meaning = context.meaning();
  const lists = await Promise.all(
    editions
      .slice(0, EDITIONS_ASKED)
      .map((edition) => recommendItems(context.db, { like: edition.id }, { exclude, meaning })),
  );
  // An imported edition lists its editors and translators as authors: "Same author" counts only
  // for the writer, named first, or Frankenstein would bring every book Percy Shelley is in.
  const writers = new Set(editions.map((edition) => authorKey(edition.authors[0] ?? '')));
  writers.delete('');
  /** One work once: its main title (before a colon, semicolon or bracket) and its writer. */
  const work = (row: Pick<SearchRow, 'title' | 'authors'>) =>
    `${significant(row.title.split(/[:;([]/)[0] ?? '').join(' ')}|${authorKey(row.authors[0] ?? '')}`;
  const picks: Recommendation[] = [];
  // X's editions are never a pick ("Frankenstein" is not like "Frankenstein; or, …").
  const seen = new Set<string>(editions.map(work));
  let byAuthor = 0;
  for (let index = 0; picks.length < RECOMMENDATIONS_MAX; index += 1) {
    const round = lists.map((list) => list[index]).filter((row) => row !== undefined);
    if (round.length === 0) break;
    for (const row of round) {
      if (picks.length >= RECOMMENDATIONS_MAX || seen.has(row.id) || seen.has(work(row))) continue;
      if (seen.has(workKey(row)) || isEdition(row)) continue;
      if (/^Same author/.test(row.reason)) {
        const byWriter = row.authors.some((name) => writers.has(authorKey(name)));
        if (!byWriter || byAuthor >= LIKE_SAME_AUTHOR_MAX) continue;
        byAuthor += 1;
      }
      seen.add(row.id).add(work(row)).add(workKey(row));
      picks.push(row);
    }
  }

  const name = describe(first);
  if (picks.length === 0) {
    const text =
      shown.length > 0
        ? `That is all the catalogue has like ${name} for now. Try asking for books or papers on its subject.`
        : `${name} is in the catalogue, but nothing else in it is listed as like it yet. Try asking for books or papers on its subject.`;
    return {
      text,
      links: [itemLink(first), LINKS.search],
      facts: [`Catalogue: ${name}`, text],
    };
  }
  const lines = picks.map((row) => `• ${describe(row)} (${likeReason(row.reason)})`);
  const own = withoutItself || shown.length > 0 ? [] : [itemLink(first)];
  return {
    text: `If you liked ${name}, you might like:\n${lines.join('\n')}`,
    links: [...own, ...picks.map(itemLink)],
    facts: [
      `Catalogue: ${name}`,
      ...picks.map((row) => `Like it (${likeReason(row.reason)}): ${describe(row)}`),
    ],
  };
}

/** Words of a request that say when or why, not what: "to read over the break", "i'm bored". */
const OCCASION = new Set(
  (
    'the to over during break holiday holidays summer trip for me i im m want need please bored ' +
    'next after what whats should can could you u read reading something anything some any'
  ).split(' '),
);

/** Everyday names of the catalogue's subjects ("sci fi" is filed as science fiction). */
const EVERYDAY_SUBJECTS: [RegExp, string][] = [
  [/\b(sci ?fi|scifi)\b/g, 'science fiction'],
  [/\b(whodunn?its?|(detective|crime) (stories|novels|fiction)|detectives?|crime)\b/g, 'mystery'],
  [/\b(love stor(y|ies)|romantic)\b/g, 'romance'],
];

/** A tone, not a subject: "something spooky" is horror; "a spooky gothic book" is gothic. */
const TONE = new Set(['spooky', 'scary', 'creepy', 'chilling']);

/**
 * A recommendation's topic as the catalogue files it: the occasion left out, everyday names read
 * as its subjects ("a classic sci fi book to read over the break" → "classic science fiction
 * book"). The signal words ("classic", "for beginners", "novel") stay for recommend.ts to read.
 */
export function recommendationTopic(text: string): string {
  let topic = normal(text);
  for (const [pattern, name] of EVERYDAY_SUBJECTS) topic = topic.replace(pattern, name);
  const words = topic.split(' ').filter((word) => word !== '' && !OCCASION.has(word));
  const toneless = words.filter((word) => !TONE.has(word));
  const rest = toneless.filter((word) => !NOT_THE_TOPIC.has(word));
  if (rest.length > 0 || toneless.length === words.length) return toneless.join(' ');
  return [...toneless, 'horror'].join(' ');
}

/** Words of a topic that say how, not what: "a good classic novel for beginners". */
const NOT_THE_TOPIC = new Set(
  (
    'a an the some any good great best nice classic classics popular famous new old recent ' +
    'something anything book books novel novels read reading title titles to over during break ' +
    'holiday holidays summer for me i want need please spooky scary fun easy short beginners ' +
    'beginner intro introduction what should can you recommend suggest bored next after m'
  ).split(' '),
);

/**
 * Recommendations on a topic (issue 25): "a classic romance", "a spooky gothic book", "what
 * should I read", from server/chatbot/recommend.ts (subjects, authors, popularity, the beginner
 * and classic signals), never more than five, each with why, none of those `shown` before.
 */
async function recommendationsOnTopic(
  context: AssistantContext,
  topicText: string,
  type: ItemType | undefined,
  shown: readonly string[],
): Promise<Recommendation[]> {
  const options = { exclude: await shownIds(context, shown), meaning: context.meaning() };
  const asked = recommendationTopic(topicText);
  const picks = await recommendItems(context.db, { topic: asked, type }, options);
  if (picks.length > 0 || asked === topicText) return picks;
  return recommendItems(context.db, { topic: topicText, type }, options);
}

async function recommendOnTopic(
  context: AssistantContext,
  topicText: string,
  type: ItemType | undefined,
  shown: readonly string[],
): Promise<Reply> {
  const picks = await recommendationsOnTopic(context, topicText, type, shown);
  if (picks.length === 0) {
    const words = normal(topicText)
      .split(' ')
      .filter(
        (word) => word && !NOT_THE_TOPIC.has(word) && !['on', 'about', 'in', 'of'].includes(word),
      );
    return topic(context, words.join(' ') || topicText, type);
  }
  const lines = picks.map((row) => `• ${describe(row)} (${row.reason})`);
  const text = `${shown.length > 0 ? 'More you might like' : 'You might like'}:\n${lines.join('\n')}`;
  return {
    text,
    links: picks.map(itemLink),
    facts: picks.map((row) => `Recommended (${row.reason}): ${describe(row)}`),
  };
}

/** "h g wells" as the catalogue may write it: "h. g. wells", "h.g. wells". */
export function initialsVariants(name: string): string[] {
  const words = name.trim().split(/\s+/);
  const initials = words.filter((word) => /^[a-z]\.?$/i.test(word)).length;
  if (initials === 0 || initials === words.length) return [];
  const dotted = words.map((word) => (/^[a-z]$/i.test(word) ? `${word}.` : word));
  const joined = dotted.join(' ').replace(/\b([a-z])\. (?=[a-z]\.)/gi, '$1.');
  return [...new Set([dotted.join(' '), joined])].filter((variant) => variant !== name);
}

const ITEM_IN_LINK =
  /[?&](?:item|book)=([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:&|$)/i;

/**
 * The links of a reply whose items are in the catalogue now (not withdrawn), checked before they
 * are shown: an item link or a "Reserve" link names an item by id, and only one the catalogue
 * holds is offered, whatever wrote the reply. Links to screens pass as they are.
 */
export async function checkedLinks(
  db: Kysely<Database>,
  links: readonly ChatbotLink[],
): Promise<ChatbotLink[]> {
  const ids = links.map((link) => ITEM_IN_LINK.exec(link.href)?.[1]?.toLowerCase());
  const wanted = [...new Set(ids.filter((id) => id !== undefined))];
  if (wanted.length === 0) return [...links];
  const held = new Set(
    (
      await db
        .selectFrom('items')
        .select('id')
        .where('id', 'in', wanted)
        .where('withdrawn_at', 'is', null)
        .execute()
    ).map((row) => row.id.toLowerCase()),
  );
  return links.filter((link, index) => ids[index] === undefined || held.has(ids[index]!));
}
