import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { ItemType } from '#contract/http/catalogue.ts';
import { nearestToVector, type QueryMeaning } from '../catalogue/meaning.ts';
import { nearestItems, sharesAny } from '../catalogue/related.ts';
import { queryWords, type SearchRow } from '../catalogue/search.ts';
import { STOP_WORDS } from '../catalogue/stop-words.ts';
import type { Database } from '../db/schema.ts';

/** Never more recommendations than this in one answer: a reply, not a results page. */
export const RECOMMENDATIONS_MAX = 5;

/** At most this many of one author in a list "like X": so it is not one author's shelf. */
export const LIKE_SAME_AUTHOR_MAX = 3;

/** At most this many of one author in a list on a topic. */
export const TOPIC_SAME_AUTHOR_MAX = 2;

/**
 * What is asked for: items like a known one (`like`: its id), or on a topic ("romance",
 * "machine learning"), maybe of one type, for beginners, or classics. The topic may keep its
 * framing ("good books on …", "a classic romance novel"): {@link topicSignals} reads it.
 */
export type RecommendRequest =
  { like: string } | { topic: string; type?: ItemType; audience?: 'beginner'; classic?: boolean };

/** How a recommendation is made, beyond what is asked. */
export interface RecommendOptions {
  /** Items already shown ("any others?"): never again, nor another edition of them. */
  exclude?: readonly string[];
  /** The app's search by meaning, when the database has it (the chatbot's `meaning()`). */
  meaning?: QueryMeaning | undefined;
  /** Fewer than {@link RECOMMENDATIONS_MAX}; never more. */
  limit?: number;
}

/** One recommended item and why, in words a person reads ("Same author: Suzanne Collins"). */
export type Recommendation = SearchRow & { reason: string };

/** What a topic's text says beyond its words. */
export interface TopicSignals {
  /** The words it is about, framing and signal words left out ("machine", "learning"). */
  words: string[];
  type?: ItemType;
  beginner: boolean;
  classic: boolean;
}

/** Words that frame a request ("good books on", "a novel") and say nothing of its topic. */
const FRAMING = new Set(
  (
    'good great best nice interesting favourite favorite top popular recommend recommended ' +
    'recommendation recommendations suggest suggestion suggestions something anything stuff ' +
    'please book books novel novels read reads reading title titles text texts textbook ' +
    'textbooks material materials resource resources paper papers article articles research ' +
    'course courses lecture lectures tutorial tutorials notes like want need looking find ' +
    'could would give show'
  ).split(' '),
);

/** Words that say which type is wanted: the type, unless the request names one. */
const TYPE_WORDS: Record<string, ItemType> = {
  book: 'book',
  books: 'book',
  novel: 'book',
  novels: 'book',
  textbook: 'book',
  textbooks: 'book',
  paper: 'paper',
  papers: 'paper',
  article: 'paper',
  articles: 'paper',
  research: 'paper',
  course: 'course',
  courses: 'course',
  lecture: 'course',
  lectures: 'course',
  tutorial: 'course',
  tutorials: 'course',
};

/** Words asking for something for beginners. */
const BEGINNER_WORDS = new Set(
  (
    'beginner beginners beginning novice novices newbie newbies starter starters intro ' +
    'introduction introductory introductions basics basic primer dummies easy simple gentle 101'
  ).split(' '),
);

/** Words asking for a classic ("classical" is left alone: classical mechanics is a topic). */
const CLASSIC_WORDS = new Set(['classic', 'classics']);

/**
 * What in an item's title, subjects or description says it is for beginners (PostgreSQL's
 * `~*`, `\m`/`\M` the word's start and end).
 */
const BEGINNER_PATTERN = String.raw`\m(introduction|introductory|intro|beginners?|beginning|primer|basics|fundamentals|first course|getting started|for dummies|crash course|gentle|for everyone|made easy|101|elementary|essentials)\M`;

/** What in an item's title says it is not for beginners. */
const ADVANCED_PATTERN = String.raw`\m(advanced|graduate|expert|masterclass|in depth|in-depth|professional)\M`;

/**
 * Up to this year, a book counts as a classic when classics are asked for; a later one is not
 * refused (the subject "classics" still counts), it only ranks lower.
 */
const CLASSIC_UNTIL_YEAR = 1950;

/**
 * Subjects so broad (half the novels are "fiction") that sharing them says nothing of likeness:
 * never asked for, nor given as a reason.
 */
const GENERIC_SUBJECTS = new Set(['fiction', 'non-fiction', 'nonfiction', 'general', 'books']);

/** Candidates read per statement: enough to leave out editions, one author's shelf, and still fill. */
const CANDIDATES = 60;

/** Only an item's first authors and subjects are asked, as related.ts does. */
const AUTHORS_ASKED = 5;
const SUBJECTS_ASKED = 10;

/** The most popular items scored when a request names no topic. */
const POPULAR_CANDIDATES = 300;

/** A reason lists at most this many subjects. */
const SUBJECTS_NAMED = 3;

/** Ratings from this many readers make "Popular with readers" worth saying. */
const POPULAR_RATINGS = 100_000;

/** This many uses here (reservations, walk-in loans, people waiting) make "Often borrowed here". */
const POPULAR_HERE = 3;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const COLUMNS = sql.raw(
  'i.id, i.kind, i.title, i.authors, i.year, i.subjects, i.description, i.cover_url, ' +
    'i.drive_link, i.url, i.page_count, i.withdrawn_at',
);

/**
 * A work's ratings, the most of any of its editions (same main title and first author, through
 * `items_main_title_key_idx`): the demo library's Pride and Prejudice has none, goodbooks' two
 * million.
 */
const RATINGS = sql`(SELECT max(e.ratings_count) FROM items e
                      WHERE e.main_title_key = i.main_title_key AND e.authors[1] = i.authors[1])`;
/** People on the item's waiting list now (`queued_holds_queue_idx`). */
const WAITING = sql`(SELECT count(*)::int FROM queued_holds q
                      WHERE q.item_id = i.id AND q.status IN ('queued', 'offered'))`;

/**
 * An item's popularity, a boost and tie-breaker beside what matched (alone only when a request
 * names no topic): Goodreads' ratings count ({@link RATINGS}; null outside goodbooks) and the
 * library's own uses, which `items.circulation` keeps (reservations and walk-in loans, recounted
 * hourly by server/catalogue/popularity.ts, as search's ties use it), plus {@link WAITING}
 * (counted for the candidates only, not kept). Both on a log scale: ratings
 * run from a few thousand to 4.7 million, and a blockbuster must not outrank a better match. One
 * use here weighs twice a rating's order of magnitude: our readers' choices say more about what
 * our readers want than a worldwide count.
 */
const popularity = (column = sql`i`) =>
  sql`(ln(1 + coalesce(${column}.ratings_count, 0)) + 2 * ln(1 + ${column}.circulation + ${column}.waiting))`;

/**
 * The full-text document `items_search_kind_idx` indexes (server/catalogue/search.ts): a topic
 * search names it word for word, or the index is not used.
 */
const SEARCH_DOCUMENT = sql`(i.search || array_to_tsvector(ARRAY['kind_' || i.kind]))`;

/** Reads a topic's text: its words, and whether it asks for a type, beginners or classics. */
export function topicSignals(text: string): TopicSignals {
  const all = queryWords(text.replace(/\bfor dummies\b/i, 'dummies'));
  let type: ItemType | undefined;
  let beginner = /\b(?:first steps|getting started|first course|crash course)\b/i.test(text);
  let classic = false;
  const words: string[] = [];
  for (const word of all) {
    if (BEGINNER_WORDS.has(word)) beginner = true;
    else if (CLASSIC_WORDS.has(word)) classic = true;
    else if (TYPE_WORDS[word]) type ??= TYPE_WORDS[word];
    else if (!FRAMING.has(word) && !STOP_WORDS.has(word)) words.push(word);
  }
  return { words, ...(type ? { type } : {}), beginner, classic };
}

/**
 * Up to {@link RECOMMENDATIONS_MAX} items to recommend, each with why, never withdrawn, never
 * the item asked about nor one in `exclude`, and one edition of each work (goodbooks holds
 * series and editions: the same main title by the same author counts once).
 *
 * `{ like }`: its other items by the same author first (at most {@link LIKE_SAME_AUTHOR_MAX}, the
 * same series first), then items sharing its subjects or near it by meaning (when `meaning` is
 * given and the item is embedded), then more by the author. An unknown or withdrawn item: none.
 *
 * `{ topic }`: items whose subjects name the topic, whose words hold it, or near it by meaning,
 * and the other items of the authors whose subjects name it ("classic romance": Jane Austen's
 * other novels, though goodbooks has no subjects); ranked with the beginner and classic signals
 * and popularity. A topic of framing words alone ("a good book") gives the most popular items.
 *
 * Two or three statements, and two more with meaning (the item's embedding and its neighbours,
 * or the topic's neighbours in a transaction of their own), each served by indexes: full-text
 * (`items_search_kind_idx`), trigram (authors, subjects), main title key, primary key, HNSW.
 */
export async function recommend(
  db: Kysely<Database>,
  request: RecommendRequest,
  options: RecommendOptions = {},
): Promise<Recommendation[]> {
  const limit = Math.max(0, Math.min(options.limit ?? RECOMMENDATIONS_MAX, RECOMMENDATIONS_MAX));
  if (limit === 0) return [];
  const exclude = (options.exclude ?? []).filter((id) => UUID.test(id));
  return 'like' in request
    ? recommendLike(db, request.like, exclude, limit, options.meaning)
    : recommendTopic(db, request, exclude, limit, options.meaning);
}

/** A work's key: its main title (before a subtitle or series note) and first author, folded. */
export function workKey(row: Pick<SearchRow, 'title' | 'authors'>): string {
  return `${mainTitle(row.title)}|${fold(row.authors[0] ?? '')}`;
}

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const mainTitle = (title: string) => fold(title.replace(/\s*[:([].*$/, '') || title);

/** The series a goodbooks description names ("Series: The Hunger Games #1"). */
const seriesOf = (description: string | null) =>
  /^Series: (.+?) #/.exec(description ?? '')?.[1] ?? null;

const lowered = (values: readonly string[]) => [
  ...new Set(values.map((value) => value.trim().toLowerCase()).filter((value) => value !== '')),
];

/** "A; b; c", the first letter capital. */
const sentence = (parts: readonly string[]) => {
  const text = parts.filter((part) => part !== '').join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

const subjectsReason = (subjects: readonly string[]) =>
  subjects.length === 1
    ? `shares the subject ${subjects[0]}`
    : `shares the subjects ${subjects.slice(0, SUBJECTS_NAMED).join(', ')}`;

/** Picks rows in order: one edition per work, a cap per author, none of `seen`'s works. */
class Picker {
  readonly chosen: Recommendation[] = [];
  private readonly ids = new Set<string>();
  private readonly works: Set<string>;
  private readonly perAuthor = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly authorMax: number,
    seen: readonly Pick<SearchRow, 'title' | 'authors'>[],
    excluded: readonly string[],
  ) {
    this.works = new Set(seen.map(workKey));
    for (const id of excluded) this.ids.add(id);
  }

  get full(): boolean {
    return this.chosen.length >= this.limit;
  }

  /** Adds the row unless it is taken, a known work, or its author has had the cap; says so. */
  add(row: SearchRow, reason: string): boolean {
    if (this.full || this.ids.has(row.id) || row.withdrawn_at !== null) return false;
    const work = workKey(row);
    if (this.works.has(work)) return false;
    const author = fold(row.authors[0] ?? '');
    const count = this.perAuthor.get(author) ?? 0;
    if (author !== '' && count >= this.authorMax) return false;
    this.ids.add(row.id);
    this.works.add(work);
    if (author !== '') this.perAuthor.set(author, count + 1);
    this.chosen.push({ ...row, reason });
    return true;
  }
}

/** A known row, and the subjects of every edition of its work. */
type KnownRow = SearchRow & { withdrawn: boolean; work_subjects: string[] };

/**
 * The asked item and the excluded ones, in one statement. A work's subjects are those of all its
 * editions (same main title and first author): goodbooks' Pride and Prejudice has none, the demo
 * library's the subject romance, and "something like" either is the same question.
 */
async function knownRows(db: Kysely<Database>, ids: readonly string[]): Promise<KnownRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<KnownRow>`
    SELECT ${COLUMNS}, i.withdrawn_at IS NOT NULL AS withdrawn,
           ARRAY(SELECT DISTINCT s FROM items e, unnest(e.subjects) AS s
                  WHERE e.main_title_key = i.main_title_key AND e.authors[1] = i.authors[1]
                    AND e.withdrawn_at IS NULL) AS work_subjects
      FROM items i WHERE i.id = ANY(${[...ids]}::uuid[])`.execute(db);
  return rows;
}

type LikeRow = SearchRow & { same_author: boolean; shared: number; popularity: number };

async function recommendLike(
  db: Kysely<Database>,
  id: string,
  exclude: readonly string[],
  limit: number,
  meaning: QueryMeaning | undefined,
): Promise<Recommendation[]> {
  if (!UUID.test(id)) return [];
  const known = await knownRows(db, [id, ...exclude]);
  const seed = known.find((row) => row.id === id);
  if (!seed || seed.withdrawn) return [];
  const authors = lowered(seed.authors.slice(0, AUTHORS_ASKED));
  const subjects = lowered([...seed.subjects.slice(0, SUBJECTS_ASKED), ...seed.work_subjects])
    .filter((subject) => !GENERIC_SUBJECTS.has(subject))
    .slice(0, SUBJECTS_ASKED);
  const skip = [id, ...exclude];
  const [candidates, near] = await Promise.all([
    likeCandidates(db, skip, authors, subjects),
    meaning ? nearestItems(db, id, meaning.model).catch(() => undefined) : undefined,
  ]);

  const series = seriesOf(seed.description);
  const seedTitle = mainTitle(seed.title);
  const sharesAuthor = (row: SearchRow) =>
    row.authors.some((name) => authors.includes(name.trim().toLowerCase()));
  // Another edition of the asked item, or a collection of it ("The Hunger Games Box Set").
  const editionOfSeed = (row: SearchRow) =>
    sharesAuthor(row) && fold(row.title).startsWith(seedTitle);
  const sharedSubjects = (row: SearchRow) =>
    row.subjects.filter((name) => subjects.includes(name.trim().toLowerCase()));
  const authorReason = (row: SearchRow) => {
    const names = row.authors.filter((name) => authors.includes(name.trim().toLowerCase()));
    const sameSeries = series !== null && seriesOf(row.description) === series;
    return sentence([
      `same author: ${names.slice(0, 2).join(', ')}`,
      sameSeries ? `same series: ${series}` : '',
    ]);
  };

  const picker = new Picker(limit, limit, known, exclude);
  const byAuthor = candidates
    .filter((row) => row.same_author && !editionOfSeed(row))
    // The same series first (the next books of it), then the most read.
    .sort(
      (a, b) =>
        Number(seriesOf(b.description) === series && series !== null) -
          Number(seriesOf(a.description) === series && series !== null) ||
        b.popularity - a.popularity,
    );
  let authorTaken = 0;
  for (const row of byAuthor) {
    if (authorTaken >= LIKE_SAME_AUTHOR_MAX) break;
    if (picker.add(row, authorReason(row))) authorTaken += 1;
  }

  // Then shared subjects and meaning, scored together: a shared subject counts one, the nearest
  // neighbour two, falling off down the list; ties by popularity.
  const scored = new Map<string, { row: SearchRow; score: number; near: boolean; pop: number }>();
  for (const row of candidates) {
    if (row.same_author || row.shared === 0) continue;
    scored.set(row.id, { row, score: row.shared, near: false, pop: row.popularity });
  }
  for (const [index, row] of (near ?? []).entries()) {
    if (editionOfSeed(row) || sharesAuthor(row)) continue;
    const closeness = 2 * (1 - index / (near!.length + 1));
    const known = scored.get(row.id);
    scored.set(row.id, {
      row,
      score: (known?.score ?? sharedSubjects(row).length) + closeness,
      near: true,
      pop: known?.pop ?? 0,
    });
  }
  const others = [...scored.values()].sort((a, b) => b.score - a.score || b.pop - a.pop);
  for (const { row, near: isNear } of others) {
    const shared = sharedSubjects(row);
    picker.add(
      row,
      sentence([
        shared.length > 0 ? subjectsReason(shared) : '',
        isNear ? (row.kind === 'paper' ? 'similar abstract' : 'similar description') : '',
      ]),
    );
  }
  // Room left: more by the same author.
  for (const row of byAuthor) picker.add(row, authorReason(row));
  return picker.chosen;
}

/**
 * Items sharing an author or a subject with the asked one, in one statement (the trigram indexes
 * of authors and subjects answer `sharesAny`): sharing an author first, then most subjects
 * shared, then the most popular.
 */
async function likeCandidates(
  db: Kysely<Database>,
  skip: readonly string[],
  authors: readonly string[],
  subjects: readonly string[],
): Promise<LikeRow[]> {
  const byAuthor = authors.length > 0 ? sharesAny('authors', authors) : sql<boolean>`false`;
  const bySubject = subjects.length > 0 ? sharesAny('subjects', subjects) : sql<boolean>`false`;
  if (authors.length === 0 && subjects.length === 0) return [];
  const shared =
    subjects.length > 0
      ? sql`(SELECT count(*)::int FROM unnest(i.subjects) AS v(name)
              WHERE lower(v.name) IN (${sql.join(subjects)}))`
      : sql`0`;
  const { rows } = await sql<
    LikeRow & {
      ratings_count: number | null;
      own_ratings: number | null;
      circulation: number;
      waiting: number;
    }
  >`
    SELECT c.*, ${popularity(sql`c`)}::float8 AS popularity FROM (
      SELECT ${COLUMNS}, ${RATINGS} AS ratings_count, i.ratings_count AS own_ratings,
             i.circulation, ${WAITING} AS waiting,
             (${byAuthor}) AS same_author, ${shared} AS shared
        FROM items i
       WHERE i.withdrawn_at IS NULL AND NOT (i.id = ANY(${[...skip]}::uuid[]))
         AND ((${byAuthor}) OR (${bySubject}))
    ) c
    ORDER BY c.same_author DESC, c.shared DESC, popularity DESC,
             coalesce(c.own_ratings, 0) DESC, c.id
    LIMIT ${CANDIDATES}`.execute(db);
  return rows.map(
    ({ ratings_count: _r, own_ratings: _o, circulation: _c, waiting: _w, ...row }) => ({
      ...row,
      popularity: Number(row.popularity),
    }),
  );
}

/** A topic candidate's row: what matched, the signals, and its score. */
type TopicRow = SearchRow & {
  /** The work's: the most of its editions'. */
  ratings_count: number | null;
  /** This edition's: of two editions of a work, the more rated is listed. */
  own_ratings: number | null;
  circulation: number;
  waiting: number;
  title_hit: boolean;
  words_hit: boolean;
  topic_subjects: string[];
  classic_subjects: string[];
  beginner_title: boolean;
  beginner_text: boolean;
  advanced_title: boolean;
  meant_rank: number | null;
  score: number;
};

async function recommendTopic(
  db: Kysely<Database>,
  request: Extract<RecommendRequest, { topic: string }>,
  exclude: readonly string[],
  limit: number,
  meaning: QueryMeaning | undefined,
): Promise<Recommendation[]> {
  const signals = topicSignals(request.topic);
  // A type the request names is a filter; one its words suggest ("good books on machine
  // learning") only a preference: people say "books" of courses and papers too.
  const type = request.type;
  const preferred = type ?? signals.type;
  const beginner = request.audience === 'beginner' || signals.beginner;
  const classic = request.classic === true || signals.classic;
  const phrase = signals.words.join(' ');

  const [known, meant] = await Promise.all([
    knownRows(db, exclude),
    meaning && phrase !== '' ? meantIds(db, meaning, phrase) : [],
  ]);
  const context: TopicContext = {
    words: signals.words,
    type,
    preferred,
    beginner,
    classic,
    meant,
    exclude,
  };
  const conditions: RawBuilder<unknown>[] = [];
  if (signals.words.length > 0) {
    conditions.push(sql`${SEARCH_DOCUMENT} @@ ${wordsQuery(signals.words, type)}`);
    conditions.push(sql`digi_join_words(i.subjects) ILIKE ${`%${phrase}%`}`);
  }
  if (meant.length > 0) conditions.push(sql`i.id = ANY(${meant}::uuid[])`);
  if (conditions.length === 0) {
    // Framing alone ("a good book", "a classic"): the most popular, the old ones for classics.
    // No index holds popularity: the table is read once for its most rated items (a top-N sort,
    // a few milliseconds over 10,000), and only those are scored.
    const classics = classic
      ? sql`AND (p.year <= ${CLASSIC_UNTIL_YEAR} OR digi_join_words(p.subjects) ILIKE '%classic%')`
      : sql``;
    conditions.push(sql`i.id IN (
      SELECT p.id FROM items p
       WHERE p.withdrawn_at IS NULL ${type ? sql`AND p.kind = ${type}` : sql``} ${classics}
       ORDER BY coalesce(p.ratings_count, 0) + p.circulation DESC, p.id
       LIMIT ${POPULAR_CANDIDATES})`);
  }
  const direct = await topicCandidates(db, context, sql`(${sql.join(conditions, sql` OR `)})`);

  // The authors of the items whose subjects name the topic write more of it: goodbooks' books
  // have no subjects, but Jane Austen's other novels are found through the romance she is
  // catalogued under elsewhere.
  const genreAuthors = new Map<string, SearchRow>();
  for (const row of direct) {
    if (row.topic_subjects.length === 0) continue;
    const author = row.authors[0]?.trim().toLowerCase();
    if (author && !genreAuthors.has(author) && genreAuthors.size < AUTHORS_ASKED) {
      genreAuthors.set(author, row);
    }
  }
  const viaAuthor =
    genreAuthors.size > 0
      ? await topicCandidates(
          db,
          { ...context, exclude: [...exclude, ...direct.map((row) => row.id)] },
          sharesAny('authors', [...genreAuthors.keys()]),
        )
      : [];

  // An author's other item ranks as a direct match of its words would (one point), below one
  // whose subjects name the topic.
  const ranked = [
    ...direct.map((row) => ({ row, score: Number(row.score), via: undefined })),
    ...viaAuthor.map((row) => ({
      row,
      score: Number(row.score) + 1,
      via: row.authors
        .map((name) => genreAuthors.get(name.trim().toLowerCase()))
        .find((found) => found !== undefined),
    })),
  ].sort(
    (a, b) =>
      b.score - a.score ||
      (b.row.own_ratings ?? 0) - (a.row.own_ratings ?? 0) ||
      a.row.id.localeCompare(b.row.id),
  );

  const picker = new Picker(limit, TOPIC_SAME_AUTHOR_MAX, known, exclude);
  for (const { row, via } of ranked) {
    if (picker.full) break;
    picker.add(strip(row), topicReason(row, context, phrase, via));
  }
  return picker.chosen;
}

interface TopicContext {
  words: readonly string[];
  type: ItemType | undefined;
  preferred: ItemType | undefined;
  beginner: boolean;
  classic: boolean;
  meant: readonly string[];
  exclude: readonly string[];
}

/** The words as a tsquery of all of them, of one type when asked (the index's type lexeme). */
function wordsQuery(words: readonly string[], type: ItemType | undefined): RawBuilder<unknown> {
  // queryWords keeps letters and digits only: safe to hand to to_tsquery.
  const query = sql`to_tsquery('english', ${words.join(' & ')})`;
  return type ? sql`(${query} && ${`kind_${type}`}::tsquery)` : query;
}

/** The topic's nearest items by meaning; none when the embedding or the index fails. */
async function meantIds(
  db: Kysely<Database>,
  meaning: QueryMeaning,
  phrase: string,
): Promise<string[]> {
  try {
    const vector = await meaning.embed(phrase);
    // Its own transaction: nearestToVector's settings (no sequential scans) are for it alone.
    return await db.transaction().execute((trx) => nearestToVector(trx, vector, meaning.model));
  } catch {
    return [];
  }
}

/**
 * The candidates `match` finds for a topic, scored in SQL so the LIMIT keeps the best:
 * subjects naming the topic 4 (a cataloguer's word weighs more than a title's), its words in
 * the title 2 (elsewhere 1), the nearest by meaning up to 2, the type the words suggest 1.5; for
 * beginners, "introduction" and the like in the title 2 (elsewhere 1), "advanced" and the like
 * in the title −2 and a research paper −1 (it assumes the field); for classics, a
 * classic subject 1.5 and a year up to {@link CLASSIC_UNTIL_YEAR} 1.5 (after 1990, −1); and a
 * tenth of {@link popularity} (a fifth for classics, which are classics for being read).
 */
async function topicCandidates(
  db: Kysely<Database>,
  context: TopicContext,
  match: RawBuilder<unknown>,
): Promise<TopicRow[]> {
  const { words, type, preferred, beginner, classic, meant, exclude } = context;
  const phrase = words.join(' ');
  const hasWords = words.length > 0;
  const query = hasWords ? wordsQuery(words, undefined) : sql`NULL::tsquery`;
  const subjectPatterns = hasWords ? [`%${phrase}%`, ...words.map((word) => word)] : [];
  const { rows } = await sql<TopicRow>`
    SELECT f.*, (
        CASE WHEN cardinality(f.topic_subjects) > 0 THEN 4 ELSE 0 END
      + CASE WHEN f.title_hit THEN 2 WHEN f.words_hit THEN 1 ELSE 0 END
      + CASE WHEN f.meant_rank IS NULL THEN 0
             ELSE 2 * (1 - f.meant_rank::float8 / ${meant.length + 1}) END
      + CASE WHEN f.kind = ${preferred ?? null}::text THEN 1.5 ELSE 0 END
      + CASE WHEN NOT ${beginner}::boolean THEN 0
             ELSE CASE WHEN f.beginner_title THEN 2 WHEN f.beginner_text THEN 1 ELSE 0 END
                - CASE WHEN f.advanced_title THEN 2 ELSE 0 END
                - CASE WHEN f.kind = 'paper' THEN 1 ELSE 0 END END
      + CASE WHEN NOT ${classic}::boolean THEN 0
             ELSE CASE WHEN cardinality(f.classic_subjects) > 0 THEN 1.5 ELSE 0 END
                + CASE WHEN f.year <= ${CLASSIC_UNTIL_YEAR} THEN 1.5
                       WHEN f.year > 1990 THEN -1 ELSE 0 END END
      + CASE WHEN ${classic}::boolean THEN 0.2 ELSE 0.1 END * ${popularity(sql`f`)}
    )::float8 AS score
    FROM (
      SELECT ${COLUMNS}, ${RATINGS} AS ratings_count, i.ratings_count AS own_ratings,
             i.circulation, ${WAITING} AS waiting,
             coalesce(ts_filter(i.search, '{a}') @@ ${query}, false) AS title_hit,
             coalesce(i.search @@ ${query}, false) AS words_hit,
             ARRAY(SELECT s FROM unnest(i.subjects) AS s
                    WHERE lower(s) LIKE ANY(${subjectPatterns}::text[])
                       OR lower(s) = ANY(${[...words]}::text[])) AS topic_subjects,
             ARRAY(SELECT s FROM unnest(i.subjects) AS s WHERE lower(s) LIKE '%classic%')
               AS classic_subjects,
             i.title ~* ${BEGINNER_PATTERN} AS beginner_title,
             i.title ~* ${ADVANCED_PATTERN} AS advanced_title,
             (digi_join_words(i.subjects) || ' ' || coalesce(i.description, '')) ~* ${BEGINNER_PATTERN}
               AS beginner_text,
             array_position(${[...meant]}::uuid[], i.id) AS meant_rank
        FROM items i
       WHERE i.withdrawn_at IS NULL AND NOT (i.id = ANY(${[...exclude]}::uuid[]))
         ${type ? sql`AND i.kind = ${type}` : sql``}
         AND ${match}
    ) f
    ORDER BY score DESC, coalesce(f.own_ratings, 0) DESC, f.id
    LIMIT ${CANDIDATES}`.execute(db);
  return rows;
}

/** The result row without the signals. */
function strip(row: TopicRow): SearchRow {
  const {
    ratings_count: _ratings,
    own_ratings: _own,
    circulation: _circulation,
    waiting: _waiting,
    title_hit: _title,
    words_hit: _words,
    topic_subjects: _topic,
    classic_subjects: _classic,
    beginner_title: _beginnerTitle,
    beginner_text: _beginnerText,
    advanced_title: _advanced,
    meant_rank: _meant,
    score: _score,
    ...searchRow
  } = row;
  return searchRow;
}

/** Why a topic's candidate is listed, from the signals that put it there. */
function topicReason(
  row: TopicRow,
  context: TopicContext,
  phrase: string,
  via: SearchRow | undefined,
): string {
  const parts: string[] = [];
  const subjects = [
    ...new Set([...row.topic_subjects, ...(context.classic ? row.classic_subjects : [])]),
  ];
  if (subjects.length > 0) parts.push(subjectsReason(subjects));
  else if (via) {
    const author = row.authors.find((name) =>
      via.authors.some((other) => other.trim().toLowerCase() === name.trim().toLowerCase()),
    );
    parts.push(`by ${author ?? via.authors[0]}, who wrote ${via.title} (${phrase})`);
  } else if (row.title_hit) parts.push(`its title names “${phrase}”`);
  else if (row.words_hit) parts.push(`about ${phrase}`);
  if (row.meant_rank !== null && subjects.length === 0 && !row.title_hit) {
    parts.push(`similar in meaning to “${phrase}”`);
  }
  if (context.beginner && (row.beginner_title || row.beginner_text)) parts.push('for beginners');
  if (context.classic && row.year !== null && row.year <= CLASSIC_UNTIL_YEAR) {
    parts.push(`a classic (${row.year < 0 ? `${-row.year} BC` : row.year})`);
  }
  const ratings = row.ratings_count ?? 0;
  if (ratings >= POPULAR_RATINGS) {
    parts.push(`popular with readers (${ratings.toLocaleString('en-GB')} ratings)`);
  } else if (row.circulation + row.waiting >= POPULAR_HERE) parts.push('often borrowed here');
  if (parts.length === 0) parts.push('popular with readers');
  return sentence(parts);
}
