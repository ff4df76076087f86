import type { Browser, Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { CHAT_TEXT } from '#contract/socket/chat.ts';
import { newPerson, registerViaApi, signInThroughForm } from './accounts.ts';
import {
  chatter as newChatter,
  chooseUsername,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  openNewRoom,
  test,
} from './fixtures.ts';

/** A new student on the forum's room list, with a username chosen (`fixtures.ts`). */
const chatter = async (browser: Browser, baseURL: string, firstName: string): Promise<Page> =>
  (await newChatter(browser, baseURL, firstName)).page;

/**
 * Fills `room` with `count` messages ('Message 1' first), sent over Socket.IO by as many new
 * people as the rate (5 per 5 s each) needs, outside any browser.
 */
async function fillRoom(browser: Browser, baseURL: string, room: string, count: number) {
  let sent = 0;
  while (sent < count) {
    const context = await browser.newContext({ baseURL });
    await registerViaApi(context.request, baseURL, newPerson({ firstName: 'Filler' }));
    const cookie = (await context.cookies())
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
    const socket: Socket = io(baseURL, {
      transports: ['websocket'],
      extraHeaders: { cookie, origin: baseURL },
    });
    const ask = (event: string, payload: unknown) =>
      new Promise<{ ok: boolean; message?: string }>((resolve) =>
        socket.emit(event, payload, resolve),
      );
    expect(await ask('join_room', { roomName: room })).toEqual({ ok: true });
    for (let index = 0; index < 5 && sent < count; index += 1) {
      sent += 1;
      expect(await ask('send_message', { room, message: `Message ${sent}` })).toMatchObject({
        ok: true,
      });
    }
    socket.close();
    await context.close();
  }
}

test.describe('the discussion forum', () => {
  test('two people chat; caught abuse restricts the room for both until the creator lifts it; closing sends the other home', async ({
    browser,
    baseURL,
  }) => {
    const room = `Optics ${Date.now()}`;
    const ada = await chatter(browser, baseURL!, 'Ada');
    await expectNoAxeViolations(ada);

    await ada.getByRole('button', { name: 'Create New Room' }).click();
    await ada.getByRole('button', { name: 'Create Room' }).click();
    await expect(ada.getByText('Please enter both a username and room name')).toBeVisible();
    await ada.getByLabel('Room name').fill(room);
    await ada.getByLabel('Description').fill('Lenses and the week 3 problems');
    await ada.getByRole('button', { name: 'Create Room' }).click();
    const listed = ada.getByRole('listitem').filter({ hasText: room });
    await expect(listed).toContainText('Lenses and the week 3 problems');
    await listed.getByRole('button', { name: `Join ${room}` }).click();
    await expect(ada.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
    await expect(ada.getByText('Creator', { exact: true })).toBeVisible();
    await expect(ada.getByText('No messages yet. Start the conversation!')).toBeVisible();

    const alan = await chatter(browser, baseURL!, 'Alan');
    await alan.getByLabel('Search rooms').fill(room.toUpperCase());
    const seen = alan.getByRole('listitem').filter({ hasText: room });
    await expect(seen).toContainText('1 here now');
    await expect(seen.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await seen.getByRole('button', { name: `Join ${room}` }).click();
    await expect(alan.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
    await expect(alan.getByRole('button', { name: 'Close Room' })).toHaveCount(0);

    await ada
      .getByLabel('Message', { exact: true })
      .fill('Shall we start with <b>Snell</b>’s law?');
    await ada.keyboard.press('Enter');
    const atAlan = alan.getByRole('region', { name: 'Messages' });
    await expect(atAlan).toContainText('Ada');
    await expect(atAlan).toContainText('Shall we start with <b>Snell</b>’s law?');
    await expect(ada.getByRole('region', { name: 'Messages' })).toContainText('You');

    await alan.getByLabel('Message', { exact: true }).fill('Yes, page 42.');
    await alan.getByRole('button', { name: 'Send' }).click();
    await expect(ada.getByRole('region', { name: 'Messages' })).toContainText('Yes, page 42.');
    await expectNoAxeViolations(alan);

    // Caught abuse is never sent as a message: its report carries the text, the server's matcher
    // agrees, and the room is restricted for everyone in it.
    await alan.getByLabel('Message', { exact: true }).fill('what the f*ck');
    await alan.keyboard.press('Enter');
    const warning = alan.getByRole('dialog', { name: 'Inappropriate language' });
    await expect(warning).toContainText(
      'Abusive or inappropriate language has been detected in this conversation...',
    );
    await expect(warning).toContainText('Continued violation may result in account restrictions.');
    await warning.getByRole('button', { name: 'Acknowledge' }).click();
    const restricted = 'This chat has been restricted due to inappropriate content.';
    await expect(alan.getByText(restricted)).toBeVisible();
    await expect(alan.getByLabel('Message', { exact: true })).toBeDisabled();
    await expect(alan.getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect(alan.getByRole('button', { name: 'Lift restriction' })).toHaveCount(0);
    await expectNoAxeViolations(alan);
    const warned = ada.getByRole('dialog', { name: 'Inappropriate language' });
    await expect(warned).toContainText('Continued violation may result in account restrictions.');
    await warned.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(ada.getByText(restricted)).toBeVisible();
    await expect(ada.getByLabel('Message', { exact: true })).toBeDisabled();
    await expect(ada.getByRole('region', { name: 'Messages' })).not.toContainText('what the');
    // A reload does not undo it: the server keeps the restriction.
    await alan.reload();
    await alan
      .getByRole('dialog', { name: 'Inappropriate language' })
      .getByRole('button', { name: 'Acknowledge' })
      .click();
    await expect(alan.getByText(restricted)).toBeVisible();
    await expect(alan.getByLabel('Message', { exact: true })).toBeDisabled();

    // The creator lifts it, for everyone.
    await ada.getByRole('button', { name: 'Lift restriction' }).click();
    await expect(ada.getByText(restricted)).toHaveCount(0);
    await expect(alan.getByText(restricted)).toHaveCount(0);
    await alan.getByLabel('Message', { exact: true }).fill('Sorry, back to lenses.');
    await alan.keyboard.press('Enter');
    await expect(ada.getByRole('region', { name: 'Messages' })).toContainText(
      'Sorry, back to lenses.',
    );

    await ada.getByRole('button', { name: 'Close Room' }).click();
    await ada
      .getByRole('dialog', { name: 'Close Room' })
      .getByRole('button', { name: 'Close Room' })
      .click();
    const closed = alan.getByRole('alertdialog', { name: 'Room closed' });
    await expect(closed).toContainText(`Room ${room} has been closed by the creator.`);
    await closed.getByRole('button', { name: 'OK' }).click();
    await expect(alan).toHaveURL(/\/userprofile$/);
  });

  test('a newcomer finds the demo rooms, marked as demo, each with a conversation to read', async ({
    browser,
    baseURL,
  }) => {
    const noor = await chatter(browser, baseURL!, 'Noor');
    const room = 'Book club: Frankenstein';
    const listed = noor.getByRole('listitem').filter({ hasText: room });
    await expect(listed.getByText('Demo', { exact: true })).toBeVisible();
    await expect(listed).toContainText('Demo room with an example conversation.');
    await expect(noor.getByText(CHAT_TEXT.noRooms)).toHaveCount(0);
    // Nobody but the demo account owns it: no Delete for a newcomer.
    await expect(listed.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await expectNoAxeViolations(noor);

    await listed.getByRole('button', { name: `Join ${room}` }).click();
    await expect(noor.getByRole('heading', { name: `Chat Room: ${room}` })).toBeVisible();
    const messages = noor.getByRole('region', { name: 'Messages' });
    await expect(messages).toContainText('Welcome to this month’s book club!');
    await expect(messages).toContainText('Fatima');
    await expect(messages).not.toContainText(CHAT_TEXT.noMessages);
  });

  test('a room survives a reload, with its history, and the creator can delete it from the forum', async ({
    browser,
    baseURL,
  }) => {
    const room = `History ${Date.now()}`;
    const grace = await chatter(browser, baseURL!, 'Grace');
    await openNewRoom(grace, room);
    await grace.getByLabel('Message', { exact: true }).fill('Notes for Monday');
    await grace.keyboard.press('Enter');
    await expect(grace.getByRole('region', { name: 'Messages' })).toContainText('Notes for Monday');
    await grace.reload();
    await expect(grace.getByRole('region', { name: 'Messages' })).toContainText('Notes for Monday');

    await grace.getByRole('button', { name: 'Leave Room' }).click();
    await expect(grace).toHaveURL(/discussion-forum$/);
    const listed = grace.getByRole('listitem').filter({ hasText: room });
    await listed.getByRole('button', { name: `Delete ${room}` }).click();
    const dialog = grace.getByRole('dialog', { name: 'Delete Room' });
    await expect(dialog).toContainText('cannot be undone');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(grace.getByRole('listitem').filter({ hasText: room })).toHaveCount(0);
  });

  test('scrolling to the top of a long conversation loads the older messages', async ({
    browser,
    baseURL,
  }) => {
    // Twenty-one people register and send 105 messages at the rule's pace before the test starts.
    test.setTimeout(90_000);
    const room = `Long ${Date.now()}`;
    const grace = await chatter(browser, baseURL!, 'Grace');
    await openNewRoom(grace, room);
    await fillRoom(browser, baseURL!, room, 105);
    await grace.reload();
    const messages = grace.getByRole('region', { name: 'Messages' });
    await expect(messages).toContainText('Message 105');
    // The latest 100 came with the join; the first five wait above.
    await expect(messages.getByText('Message 5', { exact: true })).toHaveCount(0);
    await messages.evaluate((element) => element.scrollTo({ top: 0 }));
    await expect(messages.getByText('Message 1', { exact: true })).toBeVisible();
    await expect(grace.getByRole('button', { name: /older messages/ })).toHaveCount(0);
    // Every message once; the "New messages" line (the 105 came while Grace was away) is no message.
    await expect(
      messages.getByRole('listitem').filter({ hasNotText: /^New messages$/ }),
    ).toHaveCount(105);
  });

  test('after a lost connection the room shows Reconnecting…, then what was missed, once', async ({
    browser,
    baseURL,
  }) => {
    const room = `Signal ${Date.now()}`;
    const ada = await chatter(browser, baseURL!, 'Ada');
    await openNewRoom(ada, room);
    const alan = await chatter(browser, baseURL!, 'Alan');
    // Alan's connection goes through a switch: off drops it and refuses new ones.
    let down = false;
    const servers: { close: () => Promise<void> }[] = [];
    await alan.routeWebSocket(/\/socket\.io\//, (socket) => {
      if (down) return void socket.close();
      servers.push(socket.connectToServer());
    });
    await alan.route(/\/socket\.io\//, (route) => (down ? route.abort() : route.continue()));
    await alan.goto(`/room/${encodeURIComponent(room)}`);
    const atAlan = alan.getByRole('region', { name: 'Messages' });
    await ada.getByLabel('Message', { exact: true }).fill('Before the tunnel');
    await ada.keyboard.press('Enter');
    await expect(atAlan).toContainText('Before the tunnel');

    down = true;
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await expect(alan.getByText('Reconnecting…')).toBeVisible();
    for (const text of ['In the tunnel 1', 'In the tunnel 2']) {
      await ada.getByLabel('Message', { exact: true }).fill(text);
      await ada.keyboard.press('Enter');
      await expect(ada.getByRole('region', { name: 'Messages' })).toContainText(text);
    }
    down = false;
    await expect(alan.getByText('Reconnecting…')).toHaveCount(0, { timeout: 15_000 });
    await expect(atAlan).toContainText('In the tunnel 2');
    await expect(atAlan.getByRole('listitem')).toHaveText([
      /Before the tunnel/,
      /In the tunnel 1/,
      /In the tunnel 2/,
    ]);
    await ada.getByLabel('Message', { exact: true }).fill('Out again');
    await ada.keyboard.press('Enter');
    await expect(atAlan.getByRole('listitem')).toHaveCount(4);
  });

  test('the chat username is kept on the profile: another browser finds it chosen', async ({
    browser,
    baseURL,
  }) => {
    const person = newPerson({ firstName: 'Katherine' });
    const first = await (await browser.newContext({ baseURL })).newPage();
    await registerViaApi(first.request, baseURL!, person);
    await first.goto('/userprofile/discussion-forum');
    await chooseUsername(first, 'kj_orbit');

    const second = await (await browser.newContext({ baseURL })).newPage();
    await second.goto('/signin');
    await signInThroughForm(second, person);
    await expect(second).toHaveURL(/\/userprofile$/);
    await second.goto('/userprofile/discussion-forum');
    await expect(second.getByText('You chat as')).toContainText('kj_orbit');
    await expect(second.getByRole('heading', { name: 'Choose a username' })).toHaveCount(0);
  });

  for (const width of [390, 1280]) {
    test(`the forum fits a ${width} px screen and axe finds nothing`, async ({ page, baseURL }) => {
      await page.setViewportSize({ width, height: 844 });
      await registerViaApi(page.request, baseURL!, newPerson());
      await page.goto('/userprofile/discussion-forum');
      await expect(page.getByRole('heading', { name: 'Choose a username' })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoAxeViolations(page);
    });
  }
});
