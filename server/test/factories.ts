import { sql } from 'kysely';
import type { RegisterRequest, Role } from '#contract/http/users.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { TestApp } from './app.ts';
import { TestClient } from './http.ts';

let counter = 0;

/** A valid form registration, unique per call, with any field overridden. */
export function registrationFactory(
  overrides: Partial<RegisterRequest> & Record<string, unknown> = {},
) {
  counter += 1;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `student${counter}.${Date.now()}@uni.example`,
    password: 'correct horse battery',
    phoneNumber: '+1 555 010 2000',
    role: 'student',
    institutionName: 'Campus University',
    academicProfile: {
      fields: ['Mathematics', ' Computing ', 'mathematics', ''],
      interests: ['Engines'],
    },
    signupMethod: 'form',
    department: 'Mathematics',
    studentId: 'S-1001',
    graduationYear: 2027,
    ...overrides,
  };
}

/** Someone signed in through the real registration call, with their browser-like client. */
export interface SignedInPerson {
  client: TestClient;
  id: string;
  email: string;
}

/**
 * Marks the account `id` as having opened its verification link, for tests whose point is not
 * verification (decision 026; `email-verification.test.ts` opens the mailed link).
 */
export async function markEmailVerified(testApp: TestApp, id: string): Promise<void> {
  await testApp.database.db
    .updateTable('users')
    .set({ email_verified: true })
    .where('id', '=', id)
    .execute();
}

/**
 * Registers a person through `POST /api/users/register` and returns their signed-in client,
 * with the e-mail address verified unless `verified: false` (`markEmailVerified`). A `librarian`
 * is registered as faculty and promoted in the database, as `npm run user:create` would have
 * made them.
 */
export async function signedInPerson(
  testApp: TestApp,
  role: Role = 'student',
  overrides: Partial<RegisterRequest> = {},
  { verified = true }: { verified?: boolean } = {},
): Promise<SignedInPerson> {
  const account = registrationFactory({
    role: role === 'student' ? 'student' : 'faculty',
    ...overrides,
  });
  const client = new TestClient(testApp.app, testApp.config.publicUrl);
  const response = await client.post('/api/users/register', account);
  if (response.statusCode !== 200) throw new Error(`registration failed: ${response.body}`);
  const row = await testApp.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', account.email.toLowerCase())
    .executeTakeFirstOrThrow();
  if (role === 'librarian') {
    await testApp.database.db
      .updateTable('users')
      .set({ role: 'librarian' })
      .where('id', '=', row.id)
      .execute();
  }
  if (verified) await markEmailVerified(testApp, row.id);
  return { client, id: row.id, email: account.email.toLowerCase() };
}

/** `count` signed-in people of one role, registered a few at a time. */
export async function signedInPeople(
  testApp: TestApp,
  count: number,
  role: Role = 'student',
): Promise<SignedInPerson[]> {
  const people: SignedInPerson[] = [];
  while (people.length < count) {
    const batch = Math.min(8, count - people.length);
    people.push(
      ...(await Promise.all(Array.from({ length: batch }, () => signedInPerson(testApp, role)))),
    );
  }
  return people;
}

/**
 * `count` chat messages in a new room of a person made for them, straight into the tables: for
 * tests of the tables themselves (their statistics, their upkeep), not of the chat's rules.
 */
export async function addChatMessages(database: DatabaseHandle, count: number): Promise<void> {
  await sql`INSERT INTO users (id, name, email) VALUES ('chat-rows', 'C', 'chat-rows@example.test')
    ON CONFLICT DO NOTHING`.execute(database.db);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO chat_rooms (name, creator_id, creator_name)
    VALUES (${`room ${crypto.randomUUID()}`}, 'chat-rows', 'C') RETURNING id
  `.execute(database.db);
  await sql`
    INSERT INTO chat_messages (room_id, sender_name, content)
    SELECT ${rows[0]!.id}, 'C', 'hello ' || g FROM generate_series(1, ${count}) g
  `.execute(database.db);
}
