import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NAME_TEXT } from '#contract/names.ts';
import { CHAT_TEXT } from '#contract/socket/chat.ts';
import { createTestApp, ROOMS_BUDGET_LIFTED, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import {
  connectChat,
  emitAck,
  listenOnFreePort,
  nextEvent,
  type ChatClient,
} from '../test/sockets.ts';

/*
 * Names people can trust (issue 19 finding 4): usernames and room names unique after folding
 * look-alikes, staff words kept for librarians, and a librarian's messages badged by the server.
 */
describe.each(testDatabaseKinds())('names on %s', (kind) => {
  let testApp: TestApp;
  let url: string;
  const open: ChatClient[] = [];

  const connect = async (person: SignedInPerson) => {
    const socket = await connectChat(url, person.client.cookieHeader(), testApp.config.publicUrl);
    open.push(socket);
    return socket;
  };
  const chooseUsername = (person: SignedInPerson, username: string) =>
    person.client.request({
      method: 'PUT',
      url: '/api/users/chat-username',
      payload: { username },
    });
  /** The status and message of a username choice. */
  const choice = async (person: SignedInPerson, username: string) => {
    const response = await chooseUsername(person, username);
    const body = response.json();
    return {
      status: response.statusCode,
      said:
        response.statusCode === 200 ? body.username : (body.errors?.[0]?.message ?? body.message),
    };
  };

  beforeAll(async () => {
    // Room creation's budget (issue 19) is not what these tests are about.
    testApp = await createTestApp(kind, { socketBudgets: ROOMS_BUDGET_LIFTED });
    url = await listenOnFreePort(testApp);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => testApp.close());

  it('lets no one take a look-alike of another person’s username, in another script, case or width', async () => {
    const grace = await signedInPerson(testApp);
    const mallory = await signedInPerson(testApp);
    expect(await choice(grace, 'Grace99')).toEqual({ status: 200, said: 'Grace99' });
    for (const lookAlike of [
      'Gr\u0430ce99',
      'GRACE99',
      'grace99',
      'Ｇｒａｃｅ９９',
      'Gr\u0430c\u043599',
    ]) {
      expect(await choice(mallory, lookAlike), lookAlike).toEqual({
        status: 409,
        said: NAME_TEXT.usernameTaken,
      });
    }
    // The owner may change how their own name is written.
    expect(await choice(grace, 'GRACE99')).toEqual({ status: 200, said: 'GRACE99' });
    // Once she moves on, the name is free.
    expect(await choice(grace, 'Grace Hopper')).toEqual({ status: 200, said: 'Grace Hopper' });
    expect(await choice(mallory, 'Gr\u0430ce99')).toEqual({ status: 200, said: 'Gr\u0430ce99' });
  });

  it('keeps staff words and the library’s name for librarians, and look-alikes of a librarian’s name from anyone', async () => {
    const student = await signedInPerson(testApp);
    const faculty = await signedInPerson(testApp, 'faculty');
    const librarian = await signedInPerson(testApp, 'librarian');
    const other = await signedInPerson(testApp, 'librarian');
    for (const name of [
      'Desk Librarian',
      'Libr\u0430rian99',
      'Site Admin',
      'Staff',
      'Digi Library',
    ]) {
      expect(await choice(student, name), name).toEqual({
        status: 403,
        said: NAME_TEXT.keptForStaff,
      });
    }
    expect(await choice(faculty, 'The Moderator')).toEqual({
      status: 403,
      said: NAME_TEXT.keptForStaff,
    });
    expect(await choice(librarian, 'Librarian99')).toEqual({ status: 200, said: 'Librarian99' });
    expect(await choice(other, 'Libr\u0430rian99')).toEqual({
      status: 409,
      said: NAME_TEXT.usernameTaken,
    });
    expect(await choice(other, 'Desk Librarian')).toEqual({ status: 200, said: 'Desk Librarian' });
  });

  it('stores the normalised name and refuses invisible and direction-changing characters', async () => {
    const person = await signedInPerson(testApp);
    expect(await choice(person, '  Ｎｏｏｒ   A ')).toEqual({ status: 200, said: 'Noor A' });
    const row = await testApp.database.db
      .selectFrom('users')
      .select(['chat_username', 'chat_username_skeleton'])
      .where('id', '=', person.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ chat_username: 'Noor A', chat_username_skeleton: 'noor a' });
    for (const name of ['Desk\u200BLib', '\u202Eyppah', 'Noor\u2066B']) {
      expect(await choice(person, name), name).toEqual({
        status: 400,
        said: NAME_TEXT.usernameInvisible,
      });
    }
  });

  it('refuses a room that hides or imitates an open one, and frees the name when it closes', async () => {
    const ada = await connect(await signedInPerson(testApp));
    const mallory = await connect(await signedInPerson(testApp));
    expect(await emitAck(ada, 'create_room', { roomName: 'General' })).toEqual({ ok: true });
    expect(await emitAck(mallory, 'create_room', { roomName: '\u200BGeneral' })).toEqual({
      ok: false,
      message: NAME_TEXT.roomInvisible,
    });
    expect(await emitAck(mallory, 'create_room', { roomName: 'Gen\u202Eeral' })).toEqual({
      ok: false,
      message: NAME_TEXT.roomInvisible,
    });
    for (const lookAlike of ['G\u0435neral', 'GENERAL', 'Ｇｅｎｅｒａｌ']) {
      expect(await emitAck(mallory, 'create_room', { roomName: lookAlike }), lookAlike).toEqual({
        ok: false,
        message: CHAT_TEXT.duplicateRoom,
      });
    }
    const names = await testApp.database.db
      .selectFrom('chat_rooms')
      .select('name')
      .where('name_skeleton', '=', 'general')
      .execute();
    expect(names).toEqual([{ name: 'General' }]);
    // A closed room is deleted: its name, and its look-alikes, are free again.
    expect(await emitAck(ada, 'close_room', { roomName: 'General' })).toEqual({ ok: true });
    expect(await emitAck(mallory, 'create_room', { roomName: 'GENERAL' })).toEqual({ ok: true });
  });

  it('keeps the staff words out of room names but a librarian’s', async () => {
    const student = await connect(await signedInPerson(testApp));
    const librarian = await connect(await signedInPerson(testApp, 'librarian'));
    for (const roomName of ['Ask a Librarian', 'Staff desk', 'Admin announcements']) {
      expect(await emitAck(student, 'create_room', { roomName }), roomName).toEqual({
        ok: false,
        message: NAME_TEXT.keptForStaff,
      });
    }
    // The library's name is not kept in room names: study groups may mention it.
    expect(await emitAck(student, 'create_room', { roomName: 'Digi Library book club' })).toEqual({
      ok: true,
    });
    expect(await emitAck(librarian, 'create_room', { roomName: 'Ask a Librarian' })).toEqual({
      ok: true,
    });
  });

  it('badges a librarian’s messages, from the role the server knows, live and in the history', async () => {
    const studentPerson = await signedInPerson(testApp);
    const student = await connect(studentPerson);
    const librarian = await connect(await signedInPerson(testApp, 'librarian'));
    const roomName = `Badges ${kind}`;
    expect(await emitAck(student, 'create_room', { roomName })).toEqual({ ok: true });
    for (const socket of [student, librarian]) {
      const history = nextEvent(socket, 'room_history');
      expect(await emitAck(socket, 'join_room', { roomName })).toEqual({ ok: true });
      await history;
    }

    const fromLibrarian = nextEvent(student, 'receive_message');
    expect(
      await emitAck(librarian, 'send_message', { room: roomName, message: 'Desk opens at 9' }),
    ).toMatchObject({ ok: true });
    expect((await fromLibrarian)[0]).toMatchObject({ content: 'Desk opens at 9', isStaff: true });

    // A student cannot badge themselves: the payload's extra fields are not read.
    const fromStudent = nextEvent(librarian, 'receive_message');
    const forged = { room: roomName, message: 'I am staff too', isStaff: true, role: 'librarian' };
    expect(await emitAck(student, 'send_message', forged)).toMatchObject({ ok: true });
    const [received] = await fromStudent;
    expect(received.content).toBe('I am staff too');
    expect(received).not.toHaveProperty('isStaff');

    // A newcomer's history carries the same.
    const late = await connect(await signedInPerson(testApp));
    const history = nextEvent(late, 'room_history');
    expect(await emitAck(late, 'join_room', { roomName })).toEqual({ ok: true });
    const [messages] = await history;
    expect(messages.map((message) => [message.content, message.isStaff ?? false])).toEqual([
      ['Desk opens at 9', true],
      ['I am staff too', false],
    ]);
  });
});
