/**
 * Library activity for the insights screen (issue 27, decision 041), three ways:
 *
 *   npx tsx scripts/simulate-activity.ts http://127.0.0.1:3000
 *     One day over HTTP, as many people would: catalogue searches (some finding nothing) and item
 *     views, each from its own client address (the server must trust `X-Forwarded-For`,
 *     `TRUST_PROXY=true`, as the end-to-end server does). The real request path, end to end.
 *
 *   SIMULATE_COOKIE='<a librarian's cookie>' npx tsx scripts/simulate-activity.ts \
 *       http://127.0.0.1:3000 --days 30 [--prefix word]
 *     A month at once on a running server with `TEST_CLOCK=on`, through
 *     `POST /api/test/simulate-activity` (server/insights/simulate.ts), backdated a day at a time:
 *     searches and the chatbot's unanswered questions through the app's insights recorder,
 *     resource requests with their answers, reservations with pickups and no-shows, and loans.
 *
 *   npx tsx scripts/simulate-activity.ts --direct --days 30 [--prefix word]
 *     The same month written straight into the configured database (DATA_DIR, or DATABASE_URL);
 *     with the embedded database, while the server is stopped (it holds the data folder).
 *
 * The terms are chosen so that two that find nothing are searched by 5 or more people a day, and
 * one by only 3: the insights list the first two and never the third; likewise one question the
 * chatbot cannot answer, in three wordings, by 6 people a day, and another by 2.
 * `e2e/insights.spec.ts` runs a month of it through the test route.
 */
import { pathToFileURL } from 'node:url';
import { simulateActivityResponseSchema } from '#contract/http/test-clock.ts';
import { simulatedTerms, type SimulatedTerms } from '#server/insights/simulate.ts';

export { simulatedTerms, type SimulatedTerms };

/** A documentation address (RFC 5737) standing for simulated person `n`. */
function address(n: number): string {
  return `192.0.2.${(n % 250) + 1}`;
}

/** Options of {@link simulateActivity}. */
export interface SimulateOptions {
  baseURL: string;
  prefix: string;
  log?: (line: string) => void;
}

/** One day of searches and views over HTTP, the real request path; answers the terms it used. */
export async function simulateActivity(options: SimulateOptions): Promise<SimulatedTerms> {
  const { baseURL, prefix, log = () => {} } = options;
  const terms = simulatedTerms(prefix);
  const get = (path: string, person: number) =>
    fetch(new URL(path, baseURL), { headers: { 'x-forwarded-for': address(person) } });
  const search = async (q: string, person: number) => {
    const response = await get(`/api/search?${new URLSearchParams({ q, type: 'book' })}`, person);
    if (!response.ok) throw new Error(`search answered ${response.status}`);
    return (await response.json()) as { total: number; items: { _id?: string; id?: string }[] };
  };

  for (let n = 0; n < 6; n += 1) await search(terms.wanted[0], n);
  for (let n = 0; n < 5; n += 1) await search(terms.wanted[1], 6 + n);
  for (let n = 0; n < 3; n += 1) await search(terms.rare, 11 + n);
  let found: string | undefined;
  for (let n = 0; n < 8; n += 1) {
    const answer = await search(terms.popular, n);
    const first = answer.items[0];
    found ??= first?.id ?? first?._id;
  }
  // The first result's details, viewed by 6 people.
  if (found) for (let n = 0; n < 6; n += 1) await get(`/api/items/${found}`, n);
  log('searches and views sent');
  return terms;
}

/**
 * A month (or `days`) at once on a `TEST_CLOCK=on` server, through its test route, as a
 * librarian (`cookie`): answers what it wrote.
 */
export async function simulateMonth(options: {
  baseURL: string;
  cookie: string;
  prefix: string;
  days?: number;
}) {
  const { baseURL, cookie, prefix, days = 30 } = options;
  const response = await fetch(new URL('/api/test/simulate-activity', baseURL), {
    method: 'POST',
    headers: { cookie, origin: baseURL, 'content-type': 'application/json' },
    body: JSON.stringify({ prefix, days }),
  });
  if (!response.ok) {
    throw new Error(
      `the simulation answered ${response.status} (is the server started with TEST_CLOCK=on, and the cookie a librarian's?)`,
    );
  }
  const month = simulateActivityResponseSchema.parse(await response.json());
  // The same words the server used, typed as they are made.
  return { ...month, terms: simulatedTerms(prefix) };
}

/** The month written into the configured database, in this process. */
async function simulateDirect(prefix: string, days: number) {
  const { loadConfig } = await import('#server/config.ts');
  const { openDatabase } = await import('#server/db/client.ts');
  const { migrate } = await import('#server/db/migrate.ts');
  const { resolveAuthSecret } = await import('#server/auth/secret.ts');
  const { simulateLibraryMonth } = await import('#server/insights/simulate.ts');
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrate(database);
    return await simulateLibraryMonth(database.db, {
      now: new Date(),
      timeZone: config.library.timeZone,
      secret: resolveAuthSecret(config),
      prefix,
      days,
      loanDays: config.library.loanDays,
    });
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const baseURL = args[0]?.startsWith('http') ? args[0] : 'http://127.0.0.1:3000';
  const prefix = flag('--prefix') ?? `sim${Date.now().toString(36).slice(-4)}`;
  const days = flag('--days');
  const cookie = process.env.SIMULATE_COOKIE;
  if (args.includes('--direct') || (days !== undefined && cookie)) {
    const count = Number(days ?? 30);
    const month = args.includes('--direct')
      ? await simulateDirect(prefix, count)
      : await simulateMonth({ baseURL, cookie: cookie!, prefix, days: count });
    console.log(
      `Done: ${count} days, ${month.requests} requests, ${month.reservations} reservations (${month.noShows} no-shows), ${month.loans} loans.`,
    );
    console.log(
      `Listed: "${month.terms.wanted.join('", "')}" and the question "${month.terms.question[0] ?? ''}". Never listed: "${month.terms.rare}", "${month.terms.rareQuestion}".`,
    );
  } else {
    if (days !== undefined) {
      console.error('A month needs SIMULATE_COOKIE (a TEST_CLOCK server) or --direct.');
      process.exit(1);
    }
    const terms = await simulateActivity({ baseURL, prefix, log: (line) => console.log(line) });
    console.log(
      `Done. Listed after the next write (5 s): "${terms.wanted.join('", "')}". Never listed: "${terms.rare}".`,
    );
  }
}
