import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deskTodaySchema,
  insightsResponseSchema,
  myMaterialsInsightsSchema,
} from '#contract/http/insights.ts';
import { reduceInsightEvents } from '../../insights/job.ts';
import { createInsightRecorder, normaliseTerm, sessionTokenOf } from '../../insights/recorder.ts';
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { statementsOf } from '../../test/statements.ts';
import { signedInPeople, signedInPerson, type SignedInPerson } from '../../test/factories.ts';

const TIME_ZONE = 'Europe/London';
/** Thursday 26 November 2026, noon in London. */
const NOW = new Date('2026-11-26T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

describe('search terms', () => {
  it('are normalised: case, spaces and edge punctuation', () => {
    expect(normaliseTerm('  Quantum   GRAVITY?! ')).toBe('quantum gravity');
    expect(normaliseTerm('"?!"')).toBe('');
    expect(normaliseTerm('null\u0000byte\ttab')).toBe('null byte tab');
  });
  it('take the session token from a signed cookie, never the signature', () => {
    expect(sessionTokenOf('a=1; better-auth.session_token=abc123.sig%3D')).toBe('abc123');
    expect(sessionTokenOf('a=1')).toBeNull();
  });
});

describe.each(testDatabaseKinds())('library insights on %s', (kind) => {
  let testApp: TestApp;
  let people: SignedInPerson[];
  let librarian: SignedInPerson;
  let faculty: SignedInPerson;
  const db = () => testApp.database.db;

  const search = (person: SignedInPerson, q: string) =>
    person.client.get(`/api/search?q=${encodeURIComponent(q)}&type=book`);
  const insights = async (period = 30) => {
    const response = await librarian.client.get(`/api/insights?period=${period}`);
    expect(response.statusCode).toBe(200);
    return insightsResponseSchema.parse(response.json());
  };
  const addItem = async (values: { kind: 'book' | 'course'; title: string; createdBy?: string }) =>
    (
      await db()
        .insertInto('items')
        .values({
          kind: values.kind,
          title: values.title,
          authors: [],
          source: 'insights-test',
          source_id: crypto.randomUUID(),
          created_by: values.createdBy ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: TIME_ZONE },
      now: () => NOW,
    });
    people = await signedInPeople(testApp, 6);
    librarian = await signedInPerson(testApp, 'librarian');
    faculty = await signedInPerson(testApp, 'faculty');
  });
  afterAll(async () => {
    await testApp.close();
  });
  beforeEach(async () => {
    await db().deleteFrom('insight_events').execute();
    await db().deleteFrom('insight_daily').execute();
  });

  it('lists a term searched by 5 people, never one searched by only 3', async () => {
    for (const person of people.slice(0, 5)) await search(person, 'Zorblax Quintessence');
    for (const person of people.slice(0, 3)) await search(person, 'flumphwidget');
    // One person searching a term again and again is still one person.
    for (let i = 0; i < 8; i += 1) await search(people[5]!, 'Solitary Qwyzzle');
    await testApp.app.insights.flush();

    const answer = await insights(7);
    expect(answer.searchesEmpty.terms).toEqual([{ term: 'zorblax quintessence', searches: 5 }]);
    expect(answer.searchesEmpty.byWeek).toEqual([
      { week: '2026-11-23', term: 'zorblax quintessence', searches: 5 },
    ]);
    const top = answer.searchesTop.map((row) => row.term);
    expect(top).toContain('zorblax quintessence');
    expect(top).not.toContain('flumphwidget');
    expect(top).not.toContain('solitary qwyzzle');

    const csv = await librarian.client.get(
      '/api/insights/export.csv?panel=searches-empty&period=7',
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain('"zorblax quintessence","5"');
    expect(csv.body).not.toContain('flumphwidget');

    // Nothing kept names a person: the keys are hashes, no user id, token or address among them.
    const rows = await db().selectFrom('insight_events').selectAll().execute();
    const kept = JSON.stringify(rows);
    for (const person of people) expect(kept).not.toContain(person.id);
    expect(kept).not.toContain('127.0.0.1');
  });

  it('writes a whole batch in one statement, and a search waits for none of it', async () => {
    const recorder = createInsightRecorder({
      db: db(),
      secret: TEST_AUTH_SECRET,
      now: () => NOW,
      timeZone: TIME_ZONE,
      intervalMs: 60_000,
    });
    const { statements: recording } = await statementsOf(async () => {
      for (let i = 0; i < 200; i += 1) {
        recorder.record(
          { kind: 'search', scope: 'all', subject: `term ${i % 20}` },
          { sessionToken: null, address: `10.1.0.${i % 50}` },
        );
      }
    });
    expect(recording).toBe(0);
    const { statements: writing } = await statementsOf(() => recorder.flush());
    expect(writing).toBe(1);
    // Session tokens are resolved to people in one more statement, still off the request path.
    recorder.record(
      { kind: 'search', subject: 'with a token' },
      { sessionToken: 'no-such-token', address: '10.1.1.1' },
    );
    expect((await statementsOf(() => recorder.flush())).statements).toBe(2);
    await recorder.close();
    const total = await db()
      .selectFrom('insight_events')
      .select((eb) => eb.fn.sum<number>('count').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(201);
  });

  it('counts guests by a hashed address: many searches from one address are one person', async () => {
    for (let i = 0; i < 6; i += 1) {
      await testApp.app.inject({ method: 'GET', url: '/api/search?q=guestonlyterm' });
    }
    await testApp.app.insights.flush();
    const rows = await db().selectFrom('insight_events').selectAll().execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.count === 6)).toBe(true);
    expect((await insights(7)).searchesEmpty.terms).toEqual([]);
  });

  it('lists items viewed by 5 people, and reserved or borrowed only by 5 distinct people', async () => {
    const viewed = await addItem({ kind: 'book', title: 'Widely Viewed' });
    const quiet = await addItem({ kind: 'book', title: 'Quietly Viewed' });
    for (const person of people.slice(0, 5)) await person.client.get(`/api/items/${viewed}`);
    for (const person of people.slice(0, 2)) await person.client.get(`/api/items/${quiet}`);
    await testApp.app.insights.flush();

    const reserve = async (item: string, who: readonly SignedInPerson[]) => {
      for (const person of who) {
        await db()
          .insertInto('reservations')
          .values({
            user_id: person.id,
            item_id: item,
            pickup_date: '2026-11-24',
            time_slot: '10:00-11:00',
            slot_starts_at: new Date('2026-11-24T10:00:00Z'),
            expires_at: new Date('2026-11-24T11:00:00Z'),
            status: 'collected',
            created_at: new Date(NOW.getTime() - 3 * DAY),
          })
          .execute();
      }
    };
    await reserve(viewed, people.slice(0, 5));
    // Three people, one of them three times: six reservations but three people.
    await reserve(quiet, [...people.slice(0, 3), people[0]!, people[0]!, people[0]!]);

    const answer = await insights(7);
    expect(answer.itemsViewed).toEqual([{ itemId: viewed, title: 'Widely Viewed', count: 5 }]);
    expect(answer.itemsReserved).toEqual([{ itemId: viewed, title: 'Widely Viewed', count: 5 }]);
    expect(answer.pickups.cells).toContainEqual({ weekday: 2, hour: 10, count: 11 });
    expect(answer.pickups.noShowRate).toBe(0);
    await db().deleteFrom('reservations').execute();
  });

  it('reduces raw events past the retention to daily counts, and still applies the threshold', async () => {
    const old = new Date(NOW.getTime() - 40 * DAY);
    const recorder = createInsightRecorder({
      db: db(),
      secret: TEST_AUTH_SECRET,
      now: () => old,
      timeZone: TIME_ZONE,
      intervalMs: 60_000,
    });
    for (let i = 0; i < 5; i += 1) {
      recorder.record(
        { kind: 'search_empty', scope: 'book', subject: 'old gap' },
        { sessionToken: null, address: `10.0.0.${i}` },
      );
      recorder.record(
        { kind: 'search_empty', scope: 'all', subject: 'old gap' },
        { sessionToken: null, address: `10.0.0.${i}` },
      );
    }
    for (let i = 0; i < 3; i += 1) {
      recorder.record(
        { kind: 'search_empty', scope: 'book', subject: 'old rare' },
        { sessionToken: null, address: `10.0.1.${i}` },
      );
    }
    // And one of today, inside the retention: it stays raw.
    testApp.app.insights.record(
      { kind: 'search_empty', scope: 'book', subject: 'fresh' },
      { sessionToken: null, address: '10.0.2.1' },
    );
    await recorder.close();
    await testApp.app.insights.flush();

    const reduced = await reduceInsightEvents(db(), NOW, {
      retentionDays: testApp.config.library.insightsRetentionDays,
      timeZone: TIME_ZONE,
    });
    expect(reduced).toBe(13);
    const raw = await db().selectFrom('insight_events').select('subject').execute();
    expect(raw).toEqual([{ subject: 'fresh' }]);
    const daily = await db()
      .selectFrom('insight_daily')
      .select(['scope', 'subject', 'count', 'people'])
      .orderBy('subject')
      .orderBy('scope')
      .execute();
    expect(daily).toEqual([
      { scope: 'all', subject: 'old gap', count: 5, people: 5 },
      { scope: 'book', subject: 'old gap', count: 5, people: 5 },
      { scope: 'book', subject: 'old rare', count: 3, people: 3 },
    ]);
    // A second run finds nothing more to reduce.
    expect(await reduceInsightEvents(db(), NOW, { retentionDays: 30, timeZone: TIME_ZONE })).toBe(
      0,
    );

    // The year lists the old term (its two tabs' people not added up), never the rare one.
    expect((await insights(365)).searchesEmpty.terms).toEqual([{ term: 'old gap', searches: 10 }]);
    expect((await insights(30)).searchesEmpty.terms).toEqual([]);
  });

  it('counts course materials opened, shown to their author only from 5 people', async () => {
    const notes = await addItem({ kind: 'course', title: 'Week 1 Notes', createdBy: faculty.id });
    const slides = await addItem({ kind: 'course', title: 'Week 2 Slides', createdBy: faculty.id });
    const book = await addItem({ kind: 'book', title: 'Not A Material' });
    expect((await people[0]!.client.post(`/api/items/${book}/opened`, {})).statusCode).toBe(404);
    for (const person of people.slice(0, 5)) {
      expect((await person.client.post(`/api/items/${notes}/opened`, {})).statusCode).toBe(200);
    }
    await people[0]!.client.post(`/api/items/${slides}/opened`, {});
    await testApp.app.insights.flush();

    const response = await faculty.client.get('/api/insights/my-materials');
    expect(response.statusCode).toBe(200);
    const mine = myMaterialsInsightsSchema.parse(response.json());
    expect(mine.materials).toEqual([
      { itemId: notes, title: 'Week 1 Notes', weeks: [{ week: '2026-11-23', opens: 5 }] },
      { itemId: slides, title: 'Week 2 Slides', weeks: null },
    ]);
    // Another member of staff sees only their own materials (none).
    const others = await librarian.client.get('/api/insights/my-materials');
    expect(myMaterialsInsightsSchema.parse(others.json()).materials).toEqual([]);
  });

  it("puts a person's own raw events in their data export, and nobody else's", async () => {
    await search(people[0]!, 'my own words');
    await search(people[1]!, 'someone elses words');
    await testApp.app.insights.flush();
    const response = await people[0]!.client.get('/api/users/me/data');
    expect(response.statusCode).toBe(200);
    const data = JSON.parse(response.body) as { insights: { events: { subject: string }[] } };
    const subjects = data.insights.events.map((event) => event.subject);
    expect(subjects).toContain('my own words');
    expect(subjects).not.toContain('someone elses words');
  });

  it('answers the desk its numbers for today', async () => {
    const response = await librarian.client.get('/api/insights/today');
    expect(response.statusCode).toBe(200);
    expect(deskTodaySchema.parse(response.json())).toEqual({
      pickupsWaiting: 0,
      overdueLoans: 0,
      openRequests: 0,
      openReports: 0,
    });
  });

  it('refuses a bad period with a sentence, and other roles', async () => {
    const bad = await librarian.client.get('/api/insights?period=12');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
    expect(JSON.stringify(bad.json())).toContain('period must be 7, 30 or 365');
    const panel = await librarian.client.get('/api/insights/export.csv?panel=nope');
    expect(panel.statusCode).toBe(400);
    expect((await people[0]!.client.get('/api/insights')).statusCode).toBe(403);
  });
});
