import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUserSchema, PASSWORD_CHANGED_MESSAGE } from '#contract/http/users.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory, signedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

describe.each(testDatabaseKinds())('my account on %s', (kind) => {
  let testApp: TestApp;
  const client = () => new TestClient(testApp.app, testApp.config.publicUrl);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
  });
  afterAll(async () => testApp.close());

  it('changes one’s own profile fields, the display name with them, and nothing else', async () => {
    const person = await signedInPerson(testApp, 'student', {
      firstName: 'Ada',
      lastName: 'Byron',
    });
    const response = await person.client.patch('/api/users/me', {
      lastName: ' Lovelace ',
      department: 'Analytical Engines',
      graduationYear: null,
      academicProfile: { fields: ['Mathematics', 'mathematics', ' '], interests: ['Poetry'] },
      // Not one's own to change: ignored.
      role: 'librarian',
      email: 'someone@else.example',
    });
    expect(response.statusCode, response.body).toBe(200);
    const user = currentUserSchema.parse(response.json());
    expect(user).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      name: 'Ada Lovelace',
      department: 'Analytical Engines',
      graduationYear: null,
      academicProfile: { fields: ['Mathematics'], interests: ['Poetry'] },
      role: 'student',
      email: person.email,
    });
    const me = await person.client.get('/api/users/me');
    expect(me.json().user).toEqual(user);
  });

  it('refuses a bad or empty change with the field to fix, and guests', async () => {
    const person = await signedInPerson(testApp);
    const bad = await person.client.patch('/api/users/me', {
      phoneNumber: 'call me',
      firstName: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((error: { path: string }) => error.path)
        .sort(),
    ).toEqual(['firstName', 'phoneNumber']);
    const empty = await person.client.patch('/api/users/me', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe('Nothing to change: send at least one field');
    expect((await client().patch('/api/users/me', { firstName: 'X' })).statusCode).toBe(401);
  });

  it('changes the password: this browser stays signed in, every other one is signed out', async () => {
    const account = registrationFactory();
    const here = client();
    expect((await here.post('/api/users/register', account)).statusCode).toBe(200);
    const elsewhere = client();
    const login = await elsewhere.post('/api/users/login', {
      email: account.email,
      password: account.password,
    });
    expect(login.statusCode).toBe(200);

    const wrong = await here.post('/api/users/change-password', {
      currentPassword: 'not the password',
      newPassword: 'a quiet lighthouse keeps seven lamps',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([
      { path: 'currentPassword', message: 'That is not your current password.' },
    ]);
    const weak = await here.post('/api/users/change-password', {
      currentPassword: account.password,
      newPassword: 'password1',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0].path).toBe('newPassword');

    const changed = await here.post('/api/users/change-password', {
      currentPassword: account.password,
      newPassword: 'a quiet lighthouse keeps seven lamps',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ success: true, message: PASSWORD_CHANGED_MESSAGE });
    expect((await here.get('/api/users/me')).json().user?.email).toBe(account.email.toLowerCase());
    expect((await elsewhere.get('/api/users/me')).json().user).toBeNull();

    const old = await client().post('/api/users/login', {
      email: account.email,
      password: account.password,
    });
    expect(old.statusCode).toBe(401);
    const fresh = await client().post('/api/users/login', {
      email: account.email,
      password: 'a quiet lighthouse keeps seven lamps',
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('downloads everything kept about oneself as a JSON file, and nothing of anyone else', async () => {
    const person = await signedInPerson(testApp, 'student', { firstName: 'Katherine' });
    const other = await signedInPerson(testApp);
    const request = {
      student: 'Katherine',
      title: 'Orbital Mechanics for Engineering Students',
      resourceType: 'book',
      institutionName: 'Campus University',
    };
    expect((await person.client.post('/api/users/requests', request)).statusCode).toBe(200);
    expect(
      (await other.client.post('/api/users/requests', { ...request, title: 'Not hers' }))
        .statusCode,
    ).toBe(200);

    const response = await person.client.get('/api/users/me/data');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="digi-library-my-data.json"',
    );
    const data = response.json();
    expect(data.profile).toMatchObject({ email: person.email, firstName: 'Katherine' });
    expect(data.requests.filed.map((filed: { title: string }) => filed.title)).toEqual([
      'Orbital Mechanics for Engineering Students',
    ]);
    expect(data).toMatchObject({
      reservations: [],
      waitingLists: [],
      loans: [],
      notices: [],
      noticeEmailChoices: {},
      forumMessages: [],
    });
    expect(response.body).not.toContain('Not hers');
    expect(response.body).not.toMatch(/password|session|token/i);
    expect((await client().get('/api/users/me/data')).statusCode).toBe(401);
  });
});
