import type { Kysely } from 'kysely';
import { RELATED_ITEMS_MAX, searchQuerySchema, type ItemType } from '#contract/http/catalogue.ts';
import type { ChatbotLink } from '#contract/http/chatbot.ts';
import { REQUEST_STATUS_LABELS } from '#contract/http/requests.ts';
import { ACTIVE_RESERVATIONS_MAX } from '#contract/http/reservations.ts';
import {
  RESERVATION_DAYS_AHEAD,
  RESERVATION_HOLD_HOURS,
  RESERVATION_TIME_SLOTS,
} from '#contract/limits.ts';
import { ROUTES } from '#contract/routes.ts';
import type { UserRow } from '../users/store.ts';
import type { QueryMeaning } from '../catalogue/meaning.ts';
import { RELATED_SAME_AUTHOR_MAX, type Related, type RelatedRow } from '../catalogue/related.ts';
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
import type { Intent } from './intents.ts';

/** A built-in answer: its text, the links we made for it, and the facts it rests on. */
export interface Reply {
  text: string;
  links: ChatbotLink[];
  /** What the library's own data says, for a model to write from (empty: nothing to ground). */
  facts: string[];
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
} satisfies Record<string, ChatbotLink>;

const itemLink = (row: { id: string; title: string }): ChatbotLink => ({
  label: row.title,
  href: `${ROUTES.librarySearch}?item=${row.id}`,
});

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
function notSure(config: Config, lead: string): Reply {
  const { library } = config;
  return {
    text: `${lead} If the library does not have what you need, you can ask for it with the request form, or contact the library at ${library.phone} or ${library.email}.`,
    links: [LINKS.request],
    facts: [],
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
      return {
        text: `${library.name} opening hours:\n${library.hours.join('\n')}\n${library.hoursNote}`,
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
      const text = `If the library doesn’t have a book, journal, article or course material you need, fill in the request form with its title (and a description if it helps). If someone has already asked for it, add your support to their request instead. Faculty and librarians review requests: pending, accepted, ordered, then available, or rejected with a reason you can read on your home page.`;
      return { text, links: [LINKS.request], facts: [text] };
    }
    case 'forum-howto': {
      const text =
        'The discussion forum has public chat rooms. Choose a username, then join a room or create one. Messages are checked for abusive language: a room where it is detected is restricted until its creator or a librarian lifts it. The creator can close their room.';
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
      return recommend(context, intent.title);
    case 'unknown':
      return notSure(context.config, 'I’m not sure I can answer that.');
  }
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
  const text = `You have ${rows.length} active reservation${rows.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
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
    return notSure(context.config, `I couldn’t find “${title}” in the catalogue.`);
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
  const result = await search(context, { author, type, pageSize: 50 });
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
        : `Not right now: every copy of ${name} is reserved or on loan. Try again later, or choose another book.`;
    return { text, links: [LINKS.reserve, itemLink(match)], facts: [text] };
  }
  const held = (await findTitle(context, title))[0];
  if (held) {
    const text = `${describe(held)} is in the catalogue, but the library has no physical copy to reserve.${held.page_count > 0 ? ' You can read it online.' : ''} If you need a printed copy, request one.`;
    return { text, links: [itemLink(held), LINKS.request], facts: [text] };
  }
  return notSure(context.config, `I couldn’t find “${title}” in the catalogue.`);
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

/** Editions of the title asked about whose related items are asked and merged. */
const EDITIONS_ASKED = 3;

/** An author's name with letters and digits only: "H. G. Wells" and "H.G. Wells" are one. */
const authorKey = (name: string) => normal(name).replace(/ /g, '');

/**
 * "Something like X": finds X as a title is looked up (a known-item search), then lists the items
 * related to it ("More like this", server/catalogue/related.ts) with why each is listed. The
 * catalogue can hold X more than once (the demo's copy and an imported edition): the related
 * items of each are merged in turn, and none of X's editions is offered as like X.
 */
async function recommend(context: AssistantContext, title: string): Promise<Reply> {
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
  const editions = [first, ...found.slice(1).filter(isEdition)].slice(0, EDITIONS_ASKED);
  const lists = await Promise.all(editions.map((edition) => context.related(edition)));

  // An imported edition lists its editors and translators as authors: "Same author" counts only
  // for the writer, named first, or Frankenstein would bring every book Percy Shelley is in.
  const writers = new Set(editions.map((edition) => authorKey(edition.authors[0] ?? '')));
  writers.delete('');
  /** One work once, whichever of its editions the lists hold: its main title and its writer. */
  const work = (row: Pick<SearchRow, 'title' | 'authors'>) =>
    `${significant(row.title.split(/[:;([]/)[0] ?? '').join(' ')}|${authorKey(row.authors[0] ?? '')}`;
  const seen = new Set([...editions.map((edition) => edition.id), ...editions.map(work)]);
  const chosen: RelatedRow[] = [];
  let byAuthor = 0;
  for (let index = 0; chosen.length < RELATED_ITEMS_MAX; index += 1) {
    const round = lists.map((list) => list.rows[index]).filter((row) => row !== undefined);
    if (round.length === 0) break;
    for (const row of round) {
      if (chosen.length >= RELATED_ITEMS_MAX || seen.has(row.id) || seen.has(work(row))) continue;
      if (isEdition(row)) continue;
      if (row.reason === 'Same author') {
        const byWriter = row.authors.some((name) => writers.has(authorKey(name)));
        if (!byWriter || byAuthor >= RELATED_SAME_AUTHOR_MAX) continue;
        byAuthor += 1;
      }
      seen.add(row.id).add(work(row));
      chosen.push(row);
    }
  }

  const name = describe(first);
  if (chosen.length === 0) {
    const text = `${name} is in the catalogue, but nothing else in it is listed as like it yet. Try asking for books or papers on its subject.`;
    return {
      text,
      links: [itemLink(first), LINKS.search],
      facts: [`Catalogue: ${name}`, text],
    };
  }
  const subjects = new Set(
    editions.flatMap((edition) => edition.subjects).map((subject) => subject.toLowerCase()),
  );
  /** Why it is listed, with the subjects it shares when that is the reason. */
  const why = (row: RelatedRow) => {
    if (row.reason !== 'Similar subject') return row.reason;
    const shared = row.subjects.filter((subject) => subjects.has(subject.toLowerCase()));
    return shared.length > 0 ? `${row.reason}: ${shared.slice(0, 3).join(', ')}` : row.reason;
  };
  const lines = chosen.map((row) => `• ${describe(row)} (${why(row)})`);
  return {
    text: `If you liked ${name}, you might like:\n${lines.join('\n')}`,
    links: [itemLink(first), ...chosen.map(itemLink)],
    facts: [
      `Catalogue: ${name}`,
      ...chosen.map((row) => `Like it (${why(row)}): ${describe(row)}`),
    ],
  };
}
