import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminUsersResponseSchema,
  managedUserSchema,
  userHistoryResponseSchema,
} from '#contract/http/admin-users.ts';
import { changeAccount } from '../../users/accounts.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory, signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';
import { connectChat, listenOnFreePort } from '../../test/sockets.ts';

describe.each(testDatabaseKinds())('librarians manage people on %s', (kind) => {
  let testApp: TestApp;
  let librarian: SignedInPerson;

  const guest = () => new TestClient(testApp.app, testApp.config.publicUrl);
  const enabledLibrarians = async () =>
    testApp.database.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'librarian')
      .where('disabled_at', 'is', null)
      .execute();
  /** Leaves `keep` as the only enabled librarians (demoting the others in the database). */
  const onlyLibrarians = async (keep: string[]) => {
    await testApp.database.db
      .updateTable('users')
      .set({ role: 'faculty' })
      .where('role', '=', 'librarian')
      .where('id', 'not in', keep)
      .execute();
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    librarian = await signedInPerson(testApp, 'librarian', { firstName: 'Dana' });
  });
  afterAll(async () => testApp.close());

  it('finds people by name, e-mail or student ID, of a role, paged', async () => {
    const student = await signedInPerson(testApp, 'student', {
      firstName: 'Quentin',
      lastName: 'Zyxwood',
      studentId: 'ZX-90210',
    });
    const byName = adminUsersResponseSchema.parse(
      (await librarian.client.get('/api/admin/users?q=zyxwood')).json(),
    );
    expect(byName.users.map((user) => user.id)).toEqual([student.id]);
    expect(byName.users[0]).toMatchObject({
      name: 'Quentin Zyxwood',
      email: student.email,
      role: 'student',
      studentId: 'ZX-90210',
      disabled: false,
      pendingFaculty: false,
    });
    expect(byName.total).toBe(1);
    const byFullName = (await librarian.client.get('/api/admin/users?q=quentin%20zyx')).json();
    expect(byFullName.total).toBe(1);
    const byId = (await librarian.client.get('/api/admin/users?q=zx-902')).json();
    expect(byId.users[0].id).toBe(student.id);
    const byEmail = (
      await librarian.client.get(`/api/admin/users?q=${encodeURIComponent(student.email)}`)
    ).json();
    expect(byEmail.users[0].id).toBe(student.id);
    const wrongRole = (
      await librarian.client.get('/api/admin/users?q=zyxwood&role=faculty')
    ).json();
    expect(wrongRole.total).toBe(0);
    // A percent sign is a character searched for, not a wildcard.
    expect((await librarian.client.get('/api/admin/users?q=%25')).json().total).toBe(0);
    const bad = await librarian.client.get('/api/admin/users?role=owner&page=0');
    expect(bad.statusCode).toBe(400);
  });

  it('is for librarians only', async () => {
    const student = await signedInPerson(testApp, 'student');
    const faculty = await signedInPerson(testApp, 'faculty');
    expect((await guest().get('/api/admin/users')).statusCode).toBe(401);
    expect((await student.client.get('/api/admin/users')).statusCode).toBe(403);
    expect((await faculty.client.get('/api/admin/users')).statusCode).toBe(403);
    expect(
      (await faculty.client.patch(`/api/admin/users/${faculty.id}`, { role: 'librarian' }))
        .statusCode,
    ).toBe(403);
  });

  it('promotes and demotes, recording who changed what and when', async () => {
    const student = await signedInPerson(testApp, 'student');
    const promoted = await librarian.client.patch(`/api/admin/users/${student.id}`, {
      role: 'faculty',
    });
    expect(promoted.statusCode).toBe(200);
    expect(managedUserSchema.parse(promoted.json()).role).toBe('faculty');
    // The new role holds on the person's very next request.
    expect((await student.client.get('/api/faculty/get-req')).statusCode).toBe(200);
    await librarian.client.patch(`/api/admin/users/${student.id}`, { role: 'student' });
    expect((await student.client.get('/api/faculty/get-req')).statusCode).toBe(403);
    // The same role again changes and records nothing.
    await librarian.client.patch(`/api/admin/users/${student.id}`, { role: 'student' });
    const history = userHistoryResponseSchema.parse(
      (await librarian.client.get(`/api/admin/users/${student.id}/history`)).json(),
    );
    expect(history.changes.map(({ field, from, to }) => ({ field, from, to }))).toEqual([
      { field: 'role', from: 'faculty', to: 'student' },
      { field: 'role', from: 'student', to: 'faculty' },
    ]);
    expect(history.changes[0]!.by).toEqual({ id: librarian.id, name: 'Dana Lovelace' });
    expect(Date.parse(history.changes[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await librarian.client.get('/api/admin/users/nobody/history')).statusCode).toBe(404);
    expect(
      (await librarian.client.patch('/api/admin/users/nobody', { role: 'student' })).statusCode,
    ).toBe(404);
    const empty = await librarian.client.patch(`/api/admin/users/${student.id}`, {});
    expect(empty.statusCode).toBe(400);
  });

  it('disabling ends sessions and sockets at once and refuses sign-in until re-enabled', async () => {
    const account = registrationFactory({ role: 'student' });
    const person = new TestClient(testApp.app, testApp.config.publicUrl);
    expect((await person.post('/api/users/register', account)).statusCode).toBe(200);
    const { id } = await testApp.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    const oldCookie = person.cookieHeader();
    const url = await listenOnFreePort(testApp);
    const socket = await connectChat(url, oldCookie, testApp.config.publicUrl);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    const disabled = await librarian.client.patch(`/api/admin/users/${id}`, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().disabled).toBe(true);
    expect(await closed).toBe('io server disconnect');
    expect((await person.get('/api/users/me')).json().user).toBeNull();
    expect((await person.get('/api/users/reservations')).statusCode).toBe(401);
    expect(
      await testApp.database.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', id)
        .execute(),
    ).toEqual([]);
    await expect(connectChat(url, oldCookie, testApp.config.publicUrl)).rejects.toThrow();

    const signIn = () =>
      guest().post('/api/users/login', { email: account.email, password: account.password });
    const refused = await signIn();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'This account is disabled. Ask the library desk to re-enable it.',
    );
    expect(refused.headers['set-cookie']).toBeUndefined();
    // A wrong password still gets the answer an unknown e-mail gets.
    const wrong = await guest().post('/api/users/login', {
      email: account.email,
      password: 'not the password at all',
    });
    expect(wrong.statusCode).toBe(401);

    await librarian.client.patch(`/api/admin/users/${id}`, { disabled: false });
    expect((await signIn()).statusCode).toBe(200);
    const history = (await librarian.client.get(`/api/admin/users/${id}/history`)).json();
    expect(history.changes.map((change: { to: string }) => change.to)).toEqual(['false', 'true']);
  });

  it('a session a disabled account somehow kept is refused all the same', async () => {
    const person = await signedInPerson(testApp, 'student');
    // As if a sign-in had raced the disabling: the account is disabled, the session is left.
    await testApp.database.db
      .updateTable('users')
      .set({ disabled_at: new Date() })
      .where('id', '=', person.id)
      .execute();
    expect((await person.client.get('/api/users/me')).json().user).toBeNull();
    expect((await person.client.get('/api/users/reservations')).statusCode).toBe(401);
  });

  it('a librarian cannot demote or disable themselves', async () => {
    const other = await signedInPerson(testApp, 'librarian');
    for (const patch of [{ role: 'faculty' }, { disabled: true }]) {
      const response = await librarian.client.patch(`/api/admin/users/${librarian.id}`, patch);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(
        /^You cannot (change your own role|disable your own account)/,
      );
    }
    expect((await librarian.client.get('/api/admin/users?q=dana')).statusCode).toBe(200);
    await other.client.patch(`/api/admin/users/${other.id}`, { role: 'student' });
    expect((await enabledLibrarians()).map((row) => row.id)).toContain(other.id);
  });

  it('the last enabled librarian is never demoted or disabled', async () => {
    const second = await signedInPerson(testApp, 'librarian');
    await onlyLibrarians([librarian.id, second.id]);
    // Disabling the second leaves one: allowed.
    expect(
      (await librarian.client.patch(`/api/admin/users/${second.id}`, { disabled: true }))
        .statusCode,
    ).toBe(200);
    // A disabled librarian does not count: the one left cannot go, whoever asks (the domain
    // module directly, as no other librarian is left to ask through the API).
    for (const patch of [{ role: 'student' as const }, { disabled: true }]) {
      await expect(
        changeAccount(testApp.database.db, librarian.id, patch, { id: second.id, name: 'Race' }),
      ).rejects.toMatchObject({
        statusCode: 409,
        message: expect.stringMatching(/last librarian/),
      });
    }
    await librarian.client.patch(`/api/admin/users/${second.id}`, { disabled: false });
    expect((await enabledLibrarians()).length).toBe(2);
  });

  it('two librarians demoting each other at once leave one librarian', async () => {
    const second = await signedInPerson(testApp, 'librarian');
    await onlyLibrarians([librarian.id, second.id]);
    const [first, other] = await Promise.all([
      librarian.client.patch(`/api/admin/users/${second.id}`, { role: 'faculty' }),
      second.client.patch(`/api/admin/users/${librarian.id}`, { role: 'faculty' }),
    ]);
    // The loser is refused by the guard (already demoted when its request arrived: 403) or, when
    // both got past the guard, by the locked count (409); never both let through.
    const statuses = [first.statusCode, other.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const left = await enabledLibrarians();
    expect(left).toHaveLength(1);
    // Put the first librarian back for whoever runs after.
    if (left[0]!.id !== librarian.id) {
      await testApp.database.db
        .updateTable('users')
        .set({ role: 'librarian' })
        .where('id', '=', librarian.id)
        .execute();
    }
  });

  it('two librarians disabling the only other one each refuse the last', async () => {
    const second = await signedInPerson(testApp, 'librarian');
    await onlyLibrarians([librarian.id, second.id]);
    const editor = (id: string) => ({ id, name: 'Race' });
    const outcomes = await Promise.allSettled([
      changeAccount(testApp.database.db, second.id, { disabled: true }, editor(librarian.id)),
      changeAccount(testApp.database.db, librarian.id, { disabled: true }, editor(second.id)),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refusal?.reason).toMatchObject({ statusCode: 409 });
    expect(await enabledLibrarians()).toHaveLength(1);
    await testApp.database.db
      .updateTable('users')
      .set({ disabled_at: null })
      .where('id', '=', librarian.id)
      .execute();
  });
});

describe.each(testDatabaseKinds())('faculty sign-ups wait for a librarian on %s', (kind) => {
  let testApp: TestApp;
  let librarian: SignedInPerson;

  beforeAll(async () => {
    // No trusted domain: every faculty sign-up waits.
    testApp = await createTestApp(kind, { env: { FACULTY_EMAIL_DOMAINS: '' } });
    librarian = await signedInPerson(testApp, 'librarian', { firstName: 'Dana' });
  });
  afterAll(async () => testApp.close());

  /** A faculty sign-up through the API: its answer, its client and its id. */
  const facultySignUp = async (lastName: string) => {
    const client = new TestClient(testApp.app, testApp.config.publicUrl);
    const account = registrationFactory({ role: 'faculty', lastName });
    const answer = await client.post('/api/users/register', account);
    const { id } = await testApp.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    return { answer, client, id };
  };

  it('acts as a student, is listed first as pending, and becomes faculty when approved', async () => {
    const { answer, client, id } = await facultySignUp('Aardvark-Pending');
    expect(answer.json()).toMatchObject({ success: true, user: { role: 'student' } });
    expect((await client.get('/api/users/me')).json().user.role).toBe('student');
    expect((await client.get('/api/faculty/get-req')).statusCode).toBe(403);
    await signedInPerson(testApp, 'student', { lastName: 'Aardvark' });

    const list = adminUsersResponseSchema.parse(
      (await librarian.client.get('/api/admin/users')).json(),
    );
    expect(list.users[0]).toMatchObject({ id, role: 'student', pendingFaculty: true });
    expect(list.users.filter((user) => user.pendingFaculty)).toHaveLength(1);

    const approved = await librarian.client.patch(`/api/admin/users/${id}`, {
      facultyRequest: 'approved',
    });
    expect(approved.json()).toMatchObject({ role: 'faculty', pendingFaculty: false });
    expect((await client.get('/api/faculty/get-req')).statusCode).toBe(200);
    const history = userHistoryResponseSchema.parse(
      (await librarian.client.get(`/api/admin/users/${id}/history`)).json(),
    );
    expect(history.changes.map(({ field, from, to }) => [field, from, to])).toEqual([
      ['role', 'student', 'faculty'],
      ['faculty_request', 'pending', 'approved'],
    ]);
    // Settled: asking again is refused plainly.
    const again = await librarian.client.patch(`/api/admin/users/${id}`, {
      facultyRequest: 'declined',
    });
    expect(again.statusCode).toBe(409);
  });

  it('declined, the account stays a student and is no longer pending', async () => {
    const { client, id } = await facultySignUp('Declined');
    const declined = await librarian.client.patch(`/api/admin/users/${id}`, {
      facultyRequest: 'declined',
    });
    expect(declined.json()).toMatchObject({ role: 'student', pendingFaculty: false });
    expect((await client.get('/api/faculty/get-req')).statusCode).toBe(403);
    const history = (await librarian.client.get(`/api/admin/users/${id}/history`)).json();
    expect(history.changes).toEqual([
      expect.objectContaining({ field: 'faculty_request', from: 'pending', to: 'declined' }),
    ]);
  });

  it('with a trusted domain, a faculty sign-up there is faculty at once', async () => {
    const trusting = await createTestApp(kind, { env: { FACULTY_EMAIL_DOMAINS: 'uni.example' } });
    try {
      const client = new TestClient(trusting.app, trusting.config.publicUrl);
      const answer = await client.post(
        '/api/users/register',
        registrationFactory({ role: 'faculty', email: `prof.${Date.now()}@maths.uni.example` }),
      );
      expect(answer.json()).toMatchObject({ success: true, user: { role: 'faculty' } });
    } finally {
      await trusting.close();
    }
  });
});
