/**
 * Drives library activity against a running server over HTTP, as many people would: catalogue
 * searches (some finding nothing), item views and course materials opened, each from its own
 * client address (the server must trust `X-Forwarded-For`, `TRUST_PROXY=true`, as the end-to-end
 * server does), so that library insights (issue 27) have something to count.
 *
 *   npx tsx scripts/simulate-activity.ts http://127.0.0.1:3000 [--days 30] [--prefix word]
 *
 * With `--days N` and `SIMULATE_COOKIE` holding a librarian's session cookie on a server with
 * `TEST_CLOCK=on`, it moves the server's clock forward a day after each day's activity (a month
 * of it, one day at a time); without, every day's activity lands today. The terms are chosen so
 * that two that find nothing are searched by 5 or more people a day, and one by only 3: the
 * insights list the first two and never the third. `e2e/insights.spec.ts` runs one day of it.
 */
import { pathToFileURL } from 'node:url';

/** What one simulated day does. */
export interface SimulatedTerms {
  /** Found nothing; searched by 6 and 5 people a day: listed. */
  wanted: [string, string];
  /** Found nothing; searched by only 3 people: never listed. */
  rare: string;
  /** Found something; searched by 8 people a day. */
  popular: string;
}

/** The day's terms for a run named by `prefix` (unique per run, so runs never mix). */
export function simulatedTerms(prefix: string): SimulatedTerms {
  return {
    wanted: [`${prefix} glarbo fizzwump`, `${prefix} orbital basketry`],
    rare: `${prefix} lonely lichen`,
    popular: 'pride',
  };
}

/** A documentation address (RFC 5737) standing for simulated person `n`. */
function address(n: number): string {
  return `192.0.2.${(n % 250) + 1}`;
}

/** Options of {@link simulateActivity}. */
export interface SimulateOptions {
  baseURL: string;
  prefix: string;
  days?: number;
  /** A librarian's session cookie, to move a TEST_CLOCK server forward a day at a time. */
  librarianCookie?: string;
  log?: (line: string) => void;
}

/** Runs the simulation; answers the terms it used. */
export async function simulateActivity(options: SimulateOptions): Promise<SimulatedTerms> {
  const { baseURL, prefix, days = 1, librarianCookie, log = () => {} } = options;
  const terms = simulatedTerms(prefix);
  const get = (path: string, person: number) =>
    fetch(new URL(path, baseURL), { headers: { 'x-forwarded-for': address(person) } });
  const search = async (q: string, person: number) => {
    const response = await get(`/api/search?${new URLSearchParams({ q, type: 'book' })}`, person);
    if (!response.ok) throw new Error(`search answered ${response.status}`);
    return (await response.json()) as { total: number; items: { _id?: string; id?: string }[] };
  };

  for (let day = 0; day < days; day += 1) {
    // Each day a different crowd, so the month has many people without any one doing much.
    const base = day * 20;
    for (let n = 0; n < 6; n += 1) await search(terms.wanted[0], base + n);
    for (let n = 0; n < 5; n += 1) await search(terms.wanted[1], base + 6 + n);
    for (let n = 0; n < 3; n += 1) await search(terms.rare, base + 11 + n);
    let found: string | undefined;
    for (let n = 0; n < 8; n += 1) {
      const answer = await search(terms.popular, base + n);
      const first = answer.items[0];
      found ??= first?.id ?? first?._id;
    }
    // The first result's details, viewed by 6 people.
    if (found) for (let n = 0; n < 6; n += 1) await get(`/api/items/${found}`, base + n);
    log(`day ${day + 1} of ${days}: searches and views sent`);
    if (librarianCookie && day < days - 1) {
      const moved = await fetch(new URL('/api/test/clock', baseURL), {
        method: 'POST',
        headers: { cookie: librarianCookie, origin: baseURL, 'content-type': 'application/json' },
        body: JSON.stringify({ hours: 24 }),
      });
      if (!moved.ok) throw new Error(`the test clock answered ${moved.status}`);
    }
  }
  return terms;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [baseURL = 'http://127.0.0.1:3000', ...rest] = process.argv.slice(2);
  const flag = (name: string) => {
    const at = rest.indexOf(name);
    return at === -1 ? undefined : rest[at + 1];
  };
  const terms = await simulateActivity({
    baseURL,
    prefix: flag('--prefix') ?? 'sim',
    days: Number(flag('--days') ?? 1),
    ...(process.env.SIMULATE_COOKIE ? { librarianCookie: process.env.SIMULATE_COOKIE } : {}),
    log: (line) => console.log(line),
  });
  console.log(
    `Done. Listed after the next write (5 s): "${terms.wanted.join('", "')}". Never listed: "${terms.rare}".`,
  );
}
