import type { Page } from '@playwright/test';
import { XSS_PAYLOADS as PAYLOADS } from '#web/test/xss-payloads.ts';
import { newPerson, registerViaApi } from './accounts.ts';
import { chooseUsername, expect, test } from './fixtures.ts';

/** Records any payload that runs, and any dialog it opens, before the app's own scripts load. */
async function watchForScripts(page: Page): Promise<() => Promise<string[]>> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    const hits: string[] = [];
    const record = (what: unknown) => hits.push(String(what));
    Object.assign(window, { __x: record, __xHits: hits });
    window.alert = record;
    window.confirm = (what) => (record(what), false);
    window.prompt = (what) => (record(what), null);
  });
  return async () => [
    ...dialogs,
    ...(await page.evaluate(() => (window as never as { __xHits: string[] }).__xHits)),
  ];
}

/** Several payloads in one text, within `max` characters. */
function joined(from: number, count: number, max: number): string {
  let text = '';
  for (const payload of PAYLOADS.slice(from, from + count)) {
    if (text.length + payload.length + 1 > max) break;
    text += `${payload} `;
  }
  return text.trim();
}

/**
 * Fifty known cross-site scripting payloads (`web/test/xss-payloads.ts`), put where people type:
 * names, course material titles and fields, request titles and descriptions, room names and
 * descriptions, chat messages and chatbot prompts. Each calls `__x(n)` if it ever runs. Pass: on
 * every screen that shows them, nothing ran (no call, no dialog), no script was blocked either (a
 * Content-Security-Policy report is a console error, which fails the test through the fixtures),
 * and the text shows as typed.
 */
test('fifty XSS payloads in every field people type run nowhere', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  expect(PAYLOADS).toHaveLength(50);

  // A faculty member publishes fifty course materials, one payload in every field of each.
  const facultyContext = await browser.newContext({ baseURL });
  const faculty = await facultyContext.newPage();
  const facultyHits = await watchForScripts(faculty);
  await registerViaApi(
    faculty.request,
    baseURL!,
    newPerson({ role: 'faculty', firstName: PAYLOADS[2]!, lastName: PAYLOADS[3]! }),
  );
  for (const payload of PAYLOADS) {
    const response = await faculty.request.post('/api/faculty/post-book', {
      headers: { origin: baseURL! },
      data: {
        title: payload,
        author: payload,
        publishedDate: '2024-05-01',
        driveLink: 'https://drive.google.com/file/d/xss-test/view',
        instituteName: payload,
        genre: payload.slice(0, 100),
      },
    });
    expect(response.status(), payload).toBe(200);
  }
  // A javascript: link is refused, not stored.
  const link = await faculty.request.post('/api/faculty/post-book', {
    headers: { origin: baseURL! },
    data: {
      title: 'Link',
      author: 'A',
      publishedDate: '2024-05-01',
      driveLink: PAYLOADS[31],
      instituteName: 'I',
      genre: 'g',
    },
  });
  expect(link.status()).toBe(400);

  // A student with payloads for a name files requests and chats.
  const studentContext = await browser.newContext({ baseURL });
  const student = await studentContext.newPage();
  const studentHits = await watchForScripts(student);
  await registerViaApi(
    student.request,
    baseURL!,
    newPerson({ firstName: PAYLOADS[0]!, lastName: PAYLOADS[1]! }),
  );
  for (let index = 0; index < 5; index++) {
    const response = await student.request.post('/api/users/requests', {
      headers: { origin: baseURL! },
      data: {
        student: PAYLOADS[index * 10 + 9]!,
        title: PAYLOADS[index * 10 + 4]!,
        description: joined(index * 10, 10, 2000),
        resourceType: 'other',
        institutionName: PAYLOADS[index * 10 + 5]!,
      },
    });
    expect(response.status()).toBe(200);
  }

  // Screens that show them. The student's home names them and lists their requests.
  await student.goto('/userprofile');
  await expect(student.getByText(PAYLOADS[4]!, { exact: true }).first()).toBeVisible();
  await student.goto('/userprofile/openlibrary?tab=courses');
  await expect(student.getByText(PAYLOADS[49]!, { exact: true }).first()).toBeVisible();
  await student.goto(`/userprofile/openlibrary?q=${encodeURIComponent('onerror')}`);
  await student.waitForLoadState('networkidle');
  await faculty.goto('/facultyprofile');
  await faculty.goto('/requests');
  await expect(faculty.getByText(PAYLOADS[14]!, { exact: true }).first()).toBeVisible();

  // The forum: rooms named and described with payloads, and messages full of them.
  await student.goto('/userprofile/discussion-forum');
  const stamp = String(Date.now()).slice(-5);
  await chooseUsername(student, `xss_${stamp}`);
  // Room names are unique, so each carries a stamp (a retry makes new ones).
  const rooms = PAYLOADS.filter((payload) => payload.length <= 50)
    .slice(0, 5)
    .map((payload) => `${payload} ${stamp}`);
  for (const [index, name] of rooms.entries()) {
    await student.getByRole('button', { name: 'Create New Room' }).click();
    await student.getByLabel('Room name').fill(name);
    await student.getByLabel('Description').fill(joined(index * 10, 10, 300));
    await student.getByRole('button', { name: 'Create Room' }).click();
    await expect(student.getByRole('listitem').filter({ hasText: name }).first()).toBeVisible();
  }
  await student
    .getByRole('listitem')
    .filter({ hasText: rooms[0]! })
    .first()
    .getByRole('button', { name: /^Join/ })
    .click();
  await expect(student.getByRole('heading', { name: `Chat Room: ${rooms[0]!}` })).toBeVisible();
  for (let index = 0; index < 5; index++) {
    await student.getByLabel('Message', { exact: true }).fill(joined(index * 10, 10, 2000));
    await student.keyboard.press('Enter');
  }
  const messages = student.getByRole('region', { name: 'Messages' });
  await expect(messages).toContainText(PAYLOADS[40]!);
  await student.reload();
  await expect(student.getByRole('region', { name: 'Messages' })).toContainText(PAYLOADS[40]!);

  // The chatbot shows the prompts (and whatever it answers) as text.
  const toggle = student
    .getByRole('complementary', { name: 'Digi Chatbot' })
    .getByRole('button', { name: 'Digi Chatbot', exact: true });
  await toggle.click();
  const bot = student.getByRole('dialog', { name: 'Digi Chatbot' });
  for (let index = 0; index < 5; index++) {
    await bot.getByLabel('Your question').fill(joined(index * 10, 10, 2000));
    await bot.getByLabel('Your question').press('Enter');
    await expect(bot.getByRole('region', { name: 'Conversation' })).toContainText(
      PAYLOADS[index * 10]!,
    );
    // One question at a time (the spec's typing indicator): the next waits for this reply, as a
    // person would. Typed sooner, it is refused with "still answering", and never shows.
    await expect(bot.getByRole('button', { name: 'Send' })).not.toHaveAttribute('aria-disabled');
  }
  await student.waitForTimeout(500);

  expect(await studentHits()).toEqual([]);
  expect(await facultyHits()).toEqual([]);
  await facultyContext.close();
  await studentContext.close();
});
