import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deskTodaySchema, insightsResponseSchema } from '#contract/http/insights.ts';
import { reduceInsightEvents } from '../../insights/job.ts';
import { createInsightRecorder } from '../../insights/recorder.ts';
import { simulateLibraryMonth } from '../../insights/simulate.ts';
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople, signedInPerson, type SignedInPerson } from '../../test/factories.ts';

const TIME_ZONE = 'Europe/London';
/** Thursday 26 November 2026, noon in London. */
const NOW = new Date('2026-11-26T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

describe.each(testDatabaseKinds())('library insights of the chatbot and rooms on %s', (kind) => {
  let testApp: TestApp;
  let people: SignedInPerson[];
  let librarian: SignedInPerson;
  const db = () => testApp.database.db;

  const ask = async (person: SignedInPerson, prompt: string) => {
    const response = await person.client.post('/api/chat', { prompt, history: [] });
    expect(response.statusCode).toBe(200);
  };
  const insights = async (period = 30) => {
    const response = await librarian.client.get(`/api/insights?period=${period}`);
    expect(response.statusCode).toBe(200);
    return insightsResponseSchema.parse(response.json());
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: TIME_ZONE },
      now: () => NOW,
    });
    people = await signedInPeople(testApp, 6);
    librarian = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => {
    await testApp.close();
  });
  beforeEach(async () => {
    await db().deleteFrom('insight_events').execute();
    await db().deleteFrom('insight_daily').execute();
  });

  it('groups the questions it could not answer by wording, from 5 people, never fewer', async () => {
    const wordings = [
      'Can I bring my dog to the library?',
      'can i bring a dog into the library',
      'Can I bring my dog to the library?',
      'Bringing dogs to the library?',
      'can I bring my dog to the library',
    ];
    for (const [index, person] of people.slice(0, 5).entries()) await ask(person, wordings[index]!);
    // Asked by 3 people only: never listed.
    for (const person of people.slice(0, 3)) await ask(person, 'Is there a harp in the basement?');
    // One person asking again and again is one person.
    for (let i = 0; i < 6; i += 1) await ask(people[5]!, 'What is the wifi password?');
    // Answered questions are not counted at all.
    for (const person of people) await ask(person, 'When are you open?');
    await testApp.app.insights.flush();

    const answer = await insights(7);
    expect(answer.chatbotUnanswered).toEqual([
      {
        wording: 'can i bring my dog to the library',
        questions: 5,
        variants: [
          { wording: 'can i bring my dog to the library', questions: 3 },
          { wording: 'bringing dogs to the library', questions: 1 },
          { wording: 'can i bring a dog into the library', questions: 1 },
        ],
      },
    ]);
    const subjects = (
      await db().selectFrom('insight_events').select('subject').distinct().execute()
    ).map((row) => row.subject);
    expect(subjects).not.toContain('when are you open');

    const csv = await librarian.client.get(
      '/api/insights/export.csv?panel=chatbot-unanswered&period=7',
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe('"group","group_questions","wording","questions"');
    expect(csv.body).toContain('"bringing dogs to the library","1"');
    expect(csv.body).not.toContain('harp');
    expect(csv.body).not.toContain('wifi');
  });

  it('keeps a group after the retention, its wordings reduced, its people never added up', async () => {
    const old = new Date(NOW.getTime() - 40 * DAY);
    const recorder = createInsightRecorder({
      db: db(),
      secret: TEST_AUTH_SECRET,
      now: () => old,
      timeZone: TIME_ZONE,
      intervalMs: 60_000,
    });
    // Five people across two wordings: the reduced day keeps 3 and 2, which never make 5.
    for (let i = 0; i < 5; i += 1) {
      recorder.record(
        {
          kind: 'chatbot_unanswered',
          scope: 'hour opening',
          subject: i < 3 ? 'opening hours?' : 'hours of opening',
        },
        { sessionToken: null, address: `10.9.0.${i}` },
      );
    }
    // Five people with one wording: listed after the reduction too.
    for (let i = 0; i < 5; i += 1) {
      recorder.record(
        { kind: 'chatbot_unanswered', scope: 'locker', subject: 'lockers' },
        { sessionToken: null, address: `10.9.1.${i}` },
      );
    }
    await recorder.flush();
    const before = await insights(365);
    expect(before.chatbotUnanswered.map((group) => group.wording)).toEqual([
      'opening hours?',
      'lockers',
    ]);
    await recorder.close();
    expect(await reduceInsightEvents(db(), NOW, { retentionDays: 30, timeZone: TIME_ZONE })).toBe(
      10,
    );
    const after = await insights(365);
    expect(after.chatbotUnanswered).toEqual([
      { wording: 'lockers', questions: 5, variants: [{ wording: 'lockers', questions: 5 }] },
    ]);
    expect((await insights(30)).chatbotUnanswered).toEqual([]);
  });

  it('counts moderation actions by kind per day, and open reports for the desk', async () => {
    const room = await db()
      .insertInto('chat_rooms')
      .values({ name: 'Insights room', creator_id: people[0]!.id, creator_name: 'someone' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const messages = await db()
      .insertInto('chat_messages')
      .values(
        [1, 2, 3].map((n) => ({
          room_id: room.id,
          sender_id: people[0]!.id,
          sender_name: 'someone',
          content: `message ${n}`,
          created_at: new Date(NOW.getTime() - DAY),
        })),
      )
      .returning('id')
      .execute();
    // Two messages reported (one by two people), one report already acted on.
    await db()
      .insertInto('chat_message_reports')
      .values([
        { message_id: messages[0]!.id, reporter_id: people[1]!.id, reason: 'spam' },
        { message_id: messages[0]!.id, reporter_id: people[2]!.id, reason: 'spam' },
        { message_id: messages[1]!.id, reporter_id: people[1]!.id, reason: 'hate' },
        {
          message_id: messages[2]!.id,
          reporter_id: people[1]!.id,
          reason: 'other',
          resolved_at: NOW,
        },
      ])
      .execute();
    const action = (name: 'hide' | 'mute' | 'dismiss', at: Date) => ({
      actor_id: librarian.id,
      actor_name: 'Librarian',
      action: name,
      reason: 'test',
      created_at: at,
      message_id: messages[2]!.id,
      room_id: room.id,
    });
    await db()
      .insertInto('moderation_actions')
      .values([
        action('hide', new Date(NOW.getTime() - DAY)),
        action('hide', new Date(NOW.getTime() - DAY)),
        action('mute', new Date(NOW.getTime() - DAY)),
        action('dismiss', NOW),
        // Before the week: not counted in it.
        action('hide', new Date(NOW.getTime() - 10 * DAY)),
      ])
      .execute();

    const answer = await insights(7);
    expect(answer.rooms.moderationByDay).toEqual([
      { day: '2026-11-25', action: 'hide', count: 2 },
      { day: '2026-11-25', action: 'mute', count: 1 },
      { day: '2026-11-26', action: 'dismiss', count: 1 },
    ]);
    expect(answer.rooms.activeRooms).toBe(1);
    const csv = await librarian.client.get('/api/insights/export.csv?panel=rooms&period=7');
    expect(csv.body.split('\r\n').slice(0, 3)).toEqual([
      '"day","messages","dismiss","hide","mute"',
      '"2026-11-25","3","0","2","1"',
      '"2026-11-26","0","1","0","0"',
    ]);
    // Nobody's name in either.
    expect(JSON.stringify(answer.rooms) + csv.body).not.toContain('Librarian');

    const today = await librarian.client.get('/api/insights/today');
    expect(deskTodaySchema.parse(today.json()).openReports).toBe(2);
    await db().deleteFrom('moderation_actions').execute();
    await db().deleteFrom('chat_rooms').where('id', '=', room.id).execute();
  });

  it('simulates a month that every panel shows, the rare term and question never', async () => {
    const item = await db()
      .insertInto('items')
      .values({
        kind: 'book',
        title: 'Simulated Shelf Book',
        authors: [],
        source: 'insights-test',
        source_id: crypto.randomUUID(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('copies')
      .values({ item_id: item.id, barcode: `SIM-${crypto.randomUUID().slice(0, 8)}` })
      .execute();
    const month = await simulateLibraryMonth(db(), {
      now: NOW,
      timeZone: TIME_ZONE,
      secret: TEST_AUTH_SECRET,
      prefix: 'simtest',
      days: 30,
    });
    expect(month.requests).toBe(30);
    expect(month.reservations).toBe(58);
    expect(month.noShows).toBeGreaterThan(0);
    expect(month.loans).toBe(month.reservations - month.noShows);

    const answer = await insights(30);
    const empty = answer.searchesEmpty.terms.map((row) => row.term);
    expect(empty).toEqual([month.terms.wanted[0], month.terms.wanted[1]]);
    expect(answer.searchesEmpty.terms[0]!.searches).toBe(180);
    expect(JSON.stringify(answer)).not.toContain('lonely lichen');
    expect(JSON.stringify(answer)).not.toContain('harp');
    expect(answer.chatbotUnanswered).toHaveLength(1);
    expect(answer.chatbotUnanswered[0]!.questions).toBe(180);
    expect(answer.chatbotUnanswered[0]!.variants).toHaveLength(3);
    expect(answer.itemsReserved.map((row) => row.title)).toContain('Simulated Shelf Book');
    expect(answer.itemsBorrowed.map((row) => row.title)).toContain('Simulated Shelf Book');
    expect(answer.requests.answered).toBe(27);
    expect(answer.requests.medianHoursToAnswer).toBeGreaterThan(0);
    expect(answer.pickups.noShowRate).toBeGreaterThan(0);
    expect(answer.pickups.cells.length).toBeGreaterThan(0);

    // A test-clock server offers the same at once; this one has no test clock.
    const refused = await librarian.client.post('/api/test/simulate-activity', { prefix: 'x' });
    expect(refused.statusCode).toBe(404);
  });
});

describe.each(testDatabaseKinds())('a simulated month through the test route on %s', (kind) => {
  let testApp: TestApp;

  beforeAll(async () => {
    // The real clock, movable: the route exists only with TEST_CLOCK=on (end-to-end servers).
    testApp = await createTestApp(kind, { env: { TEST_CLOCK: 'on' } });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('writes a month a librarian sees at once, refusing bad input and other roles', async () => {
    const librarian = await signedInPerson(testApp, 'librarian');
    const student = await signedInPerson(testApp, 'student');
    expect(
      (await student.client.post('/api/test/simulate-activity', { prefix: 'abc' })).statusCode,
    ).toBe(403);
    const bad = await librarian.client.post('/api/test/simulate-activity', {
      prefix: 'Not Good!',
      days: 400,
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('prefix is 1 to 20 lower-case letters');

    const response = await librarian.client.post('/api/test/simulate-activity', {
      prefix: 'route',
      days: 10,
    });
    expect(response.statusCode).toBe(200);
    const month = response.json() as { terms: { wanted: string[]; rare: string } };
    const insights = insightsResponseSchema.parse(
      (await librarian.client.get('/api/insights?period=30')).json(),
    );
    expect(insights.searchesEmpty.terms.map((row) => row.term)).toEqual(month.terms.wanted);
    expect(insights.chatbotUnanswered).toHaveLength(1);
    expect(JSON.stringify(insights)).not.toContain(month.terms.rare);
    expect(insights.requests.byWeek.length).toBeGreaterThan(0);
  });
});
