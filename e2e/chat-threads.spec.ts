import { mkdirSync } from 'node:fs';
import { THREADS_TEXT } from '#contract/socket/chat.ts';
import {
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  test,
  twoInARoom,
} from './fixtures.ts';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = '/tmp/threads-pw-shots';

/**
 * Issue 26's replies, reactions, edits and deletions (decision 043), in two browsers: Alan replies
 * to Ada with the keyboard only, and Ada jumps to her original from the quote; she reacts to his
 * reply and he sees who reacted; she edits her message ("edited", the quote follows) and deletes
 * it ("message deleted").
 */
test('reply and jump, react, edit and delete in a room, seen in the other browser', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  const { first, second } = await twoInARoom(browser, baseURL!, 'Threads', ['Ada', 'Alan']);
  const [ada, alan] = [first.page, second.page];

  const adaBox = ada.getByRole('textbox', { name: 'Message' });
  await adaBox.fill('Which edition should we read?');
  await adaBox.press('Enter');
  const original = alan.getByRole('listitem').filter({ hasText: 'Which edition should we read?' });
  await expect(original).toBeVisible();

  // Alan, with the keyboard only: Reply, the banner, Escape cancels; Reply again and send.
  await original.getByRole('button', { name: /^Reply to the message from Ada/ }).focus();
  await alan.keyboard.press('Enter');
  const alanBox = alan.getByRole('textbox', { name: 'Message' });
  await expect(alanBox).toBeFocused();
  await expect(alan.getByText(/^Replying to Ada/)).toBeVisible();
  await alan.keyboard.press('Escape');
  await expect(alan.getByText(/^Replying to Ada/)).toHaveCount(0);
  await original.getByRole('button', { name: /^Reply to the message from Ada/ }).focus();
  await alan.keyboard.press('Enter');
  await expect(alan.getByText(/^Replying to Ada/)).toBeVisible();
  await expectNoAxeViolations(alan);
  await alan.keyboard.type('The second one, it has the notes.');
  await alan.keyboard.press('Enter');
  await expect(alan.getByText(/^Replying to Ada/)).toHaveCount(0);

  // Ada sees the reply with its quote, and the quote takes her to the original.
  const reply = ada.getByRole('listitem').filter({ hasText: 'The second one, it has the notes.' });
  const quote = reply.getByRole('button', { name: /^Replying to Alan|^Replying to Ada/ });
  await expect(quote).toBeVisible();
  await quote.click();
  const adaOriginal = ada
    .getByRole('listitem')
    .filter({ hasText: 'Which edition should we read?' })
    .first();
  await expect(adaOriginal).toBeFocused();

  // Ada reacts to the reply from the picker; Alan sees the count and who reacted.
  await reply.getByRole('button', { name: /^React to the message from Alan/ }).click();
  const picker = ada.getByRole('group', { name: 'Choose a reaction' });
  await expect(picker.getByRole('button', { name: 'thumbs up' })).toBeFocused();
  await expectNoAxeViolations(ada);
  await ada.setViewportSize({ width: 1280, height: 900 });
  await ada.screenshot({ path: `${SHOTS}/room-1280.png`, fullPage: true });
  await picker.getByRole('button', { name: 'thumbs up' }).click();
  const alanReply = alan
    .getByRole('listitem')
    .filter({ hasText: 'The second one, it has the notes.' });
  const count = alanReply.getByRole('button', { name: /^thumbs up, 1: Ada/ });
  await expect(count).toBeVisible();
  await expect(count).toHaveAttribute('aria-pressed', 'false');
  await expect(reply.getByRole('button', { name: /^thumbs up, 1: Ada/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Ada edits her message: "edited" on both screens, and the quote follows.
  await adaOriginal.getByRole('button', { name: 'Edit your message' }).click();
  const editor = ada.getByRole('dialog', { name: 'Edit your message' });
  await editor.getByRole('textbox', { name: 'Your message' }).fill('Which edition? Any will do.');
  await expectNoAxeViolations(ada);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toHaveCount(0);
  const edited = alan.getByRole('listitem').filter({ hasText: 'Which edition? Any will do.' });
  await expect(edited.getByText(THREADS_TEXT.edited, { exact: true })).toBeVisible();
  await expect(alanReply.getByRole('button', { name: /Any will do/ })).toBeVisible();

  await alan.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(alan);
  await expectNoAxeViolations(alan);
  await alan.screenshot({ path: `${SHOTS}/room-390.png`, fullPage: true });

  // Ada deletes it: everyone reads "message deleted", and the quote says so.
  await ada
    .getByRole('listitem')
    .filter({ hasText: 'Which edition? Any will do.' })
    .first()
    .getByRole('button', { name: 'Delete your message' })
    .click();
  const confirm = ada.getByRole('dialog', { name: 'Delete your message' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(alan.getByText(THREADS_TEXT.deleted).first()).toBeVisible();
  await expect(alan.getByText('Which edition? Any will do.')).toHaveCount(0);
  await ada.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(ada);
  await expectNoAxeViolations(ada);
  await ada.screenshot({ path: `${SHOTS}/deleted-390.png`, fullPage: true });
});
