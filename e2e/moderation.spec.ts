import { mkdirSync } from 'node:fs';
import { MODERATION_TEXT } from '#contract/socket/chat.ts';
import { E2E_LIBRARIAN, newPerson, signInThroughForm } from './accounts.ts';
import {
  chatter,
  expect,
  expectNoAxeViolations,
  expectNoSidewaysScroll,
  test,
  twoInARoom,
} from './fixtures.ts';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = '/tmp/moderation-shots';

/**
 * Issue 26's moderation by people, as new users would try it, in two browsers (and a third for
 * the librarian): a student reports a message; a librarian sees it in the queue, hides it and
 * mutes the sender for 10 minutes, and the sender sees why; the room's creator turns on slow mode.
 */
test('a report reaches the queue; hide and mute reach the room; the creator sets slow mode', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const { room, first, second } = await twoInARoom(browser, baseURL!, 'Moderated', ['Ada', 'Alan']);
  const [ada, alan] = [first.page, second.page];
  const composer = alan.getByRole('textbox', { name: 'Message' });
  await composer.fill('Buy cheap essays at my site, best prices');
  await composer.press('Enter');

  // Ada reports it.
  await ada.getByRole('button', { name: /^Report the message from Alan/ }).click();
  const dialog = ada.getByRole('dialog', { name: 'Report a message' });
  await dialog.getByLabel('Spam').check();
  await dialog.getByLabel(/Anything to add/).fill('Advertising in a study room');
  await expectNoAxeViolations(ada);
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText(MODERATION_TEXT.reported)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The librarian's queue shows it, in context, with the count and the room.
  const deskContext = await browser.newContext({ baseURL });
  const desk = await deskContext.newPage();
  await desk.goto('/signin');
  await signInThroughForm(desk, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(desk).toHaveURL(/\/facultyprofile$/);
  // From the desk's home (the role navigation has no room for one more entry at 1280 px).
  await desk.goto('/desk');
  await desk.getByRole('link', { name: 'Moderation: reported messages' }).click();
  await expect(desk.getByRole('heading', { level: 1 })).toHaveText('Moderation');
  const card = desk.getByRole('listitem').filter({
    has: desk.getByRole('heading', { name: new RegExp(`1 report in “${room}”`) }),
  });
  await expect(card).toBeVisible();
  await expect(card.getByText('Note: Advertising in a study room')).toBeVisible();
  await expectNoAxeViolations(desk);
  await desk.setViewportSize({ width: 1280, height: 900 });
  await desk.screenshot({ path: `${SHOTS}/desk-1280.png`, fullPage: true });
  await desk.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(desk);
  await expectNoAxeViolations(desk);
  await desk.screenshot({ path: `${SHOTS}/desk-390.png`, fullPage: true });
  await desk.setViewportSize({ width: 1280, height: 900 });

  // Hide it, by keyboard: members see it removed, live.
  await card.getByLabel('Action').selectOption('hide');
  await card.getByLabel(/Reason/).fill('Advertising is not allowed');
  await card.getByLabel(/Reason/).press('Tab');
  await desk.keyboard.press('Enter');
  await expect(ada.getByText(MODERATION_TEXT.hidden)).toBeVisible();
  await expect(alan.getByText(MODERATION_TEXT.hidden)).toBeVisible();

  // Then mute the sender in the room for 10 minutes, from the hidden message's card.
  const hidden = desk.getByRole('listitem').filter({
    has: desk.getByRole('heading', { name: new RegExp(`Hidden in “${room}”`) }),
  });
  await hidden.getByLabel('Action').selectOption('mute-room');
  await hidden.getByLabel('For how long').selectOption('10m');
  await hidden.getByLabel(/Reason/).fill('Please keep the room for study');
  await hidden.getByRole('button', { name: 'Apply' }).click();
  await expect(desk.getByRole('cell', { name: 'Please keep the room for study' })).toBeVisible();

  // The sender sees why, and until when; a send is refused saying so.
  const banner = alan.getByRole('alert').filter({ hasText: 'A moderator muted you' });
  await expect(banner).toContainText('Reason: Please keep the room for study');
  await expect(banner).toContainText(/until \d\d:\d\d UTC/);
  // The composer is disabled, saying why and until when (decision 044).
  await expect(composer).toBeDisabled();
  await expect(alan.getByText(/muted you in the room .* until/).last()).toBeVisible();
  await expectNoAxeViolations(alan);
  await alan.screenshot({ path: `${SHOTS}/room-muted-1280.png`, fullPage: true });

  // The creator turns on slow mode; Ada's composer shows the wait after a message.
  await ada.getByRole('button', { name: 'Room settings' }).click();
  const settings = ada.getByRole('dialog', { name: 'Room settings' });
  await settings.getByLabel(/Slow mode/).fill('30');
  await settings.getByLabel(/Description and rules/).fill('Study questions only, please.');
  await expectNoAxeViolations(ada);
  await settings.getByRole('button', { name: 'Save rules' }).click();
  await expect(settings.getByText(MODERATION_TEXT.rulesSaved)).toBeVisible();
  await settings.getByRole('button', { name: 'Close' }).click();
  await expect(ada.getByText(/Slow mode: one message every 30 seconds/).first()).toBeVisible();
  const adaComposer = ada.getByRole('textbox', { name: 'Message' });
  await adaComposer.fill('Back to the exam questions');
  await adaComposer.press('Enter');
  await expect(ada.getByText(/You can send again in \d+ s/)).toBeVisible();
  await ada.screenshot({ path: `${SHOTS}/room-slow-1280.png`, fullPage: true });

  // A newcomer sees the rules on joining.
  const { page: grace } = await chatter(browser, baseURL!, 'Grace');
  await grace.setViewportSize({ width: 390, height: 844 });
  await grace.goto(`/room/${encodeURIComponent(room)}`);
  const rules = grace.getByRole('region', { name: 'Room rules' });
  await expect(rules.getByText('Study questions only, please.')).toBeVisible();
  await expectNoSidewaysScroll(grace);
  await expectNoAxeViolations(grace);
  await grace.screenshot({ path: `${SHOTS}/room-rules-390.png`, fullPage: true });
  await rules.getByRole('button', { name: 'Got it' }).click();
  await expect(rules).toBeHidden();
});

/**
 * Decision 044: a librarian ends a mute early from the queue's "Mutes and removals in force"; the
 * person is told they may post again, their composer comes back, and their message goes through.
 */
test('a librarian ends a mute early, and the person may post again', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const { room, first, second } = await twoInARoom(browser, baseURL!, 'Unmuted', ['Ada', 'Alan']);
  const [ada, alan] = [first.page, second.page];
  const composer = alan.getByRole('textbox', { name: 'Message' });
  await composer.fill('You are all wrong about chapter two');
  await composer.press('Enter');

  await ada.getByRole('button', { name: /^Report the message from Alan/ }).click();
  const dialog = ada.getByRole('dialog', { name: 'Report a message' });
  await dialog.getByLabel('Harassment').check();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText(MODERATION_TEXT.reported)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  const deskContext = await browser.newContext({ baseURL });
  const desk = await deskContext.newPage();
  await desk.goto('/signin');
  await signInThroughForm(desk, { ...newPerson(), ...E2E_LIBRARIAN });
  await expect(desk).toHaveURL(/\/facultyprofile$/);
  await desk.goto('/desk/moderation');
  const card = desk.getByRole('listitem').filter({
    has: desk.getByRole('heading', { name: new RegExp(`1 report in “${room}”`) }),
  });
  await card.getByLabel('Action').selectOption('mute-room');
  await card.getByLabel('For how long').selectOption('1h');
  await card.getByLabel(/Reason/).fill('Please disagree politely');
  await card.getByRole('button', { name: 'Apply' }).click();
  await expect(composer).toBeDisabled();
  await expect(alan.getByText('Reason: Please disagree politely').last()).toBeVisible();

  // The mute is listed in force; the librarian ends it early, by keyboard, with a reason.
  const sanction = desk.getByRole('listitem').filter({
    has: desk.getByRole('heading', { name: new RegExp(`Alan .*: Muted in “${room}”`) }),
  });
  await expect(sanction).toBeVisible();
  await expectNoAxeViolations(desk);
  await desk.screenshot({ path: `${SHOTS}/desk-sanctions-1280.png`, fullPage: true });
  await sanction.getByLabel(/Why end it early/).fill('Apologised to the room');
  await sanction.getByLabel(/Why end it early/).press('Tab');
  await desk.keyboard.press('Enter');
  await expect(sanction).toBeHidden();
  // The record of actions holds every run's (a retry's too): this room's row.
  await expect(
    desk
      .getByRole('row')
      .filter({ hasText: room })
      .getByRole('cell', { name: 'Apologised to the room' }),
  ).toBeVisible();
  await expect(desk.getByRole('cell', { name: 'ended early' }).first()).toBeVisible();

  // Alan is told, and may post again at once.
  await expect(alan.getByRole('alert').filter({ hasText: 'you may post again' })).toContainText(
    'Apologised to the room',
  );
  await expect(composer).toBeEnabled();
  await composer.fill('Sorry, everyone');
  await composer.press('Enter');
  await expect(ada.getByText('Sorry, everyone').first()).toBeVisible();
  await expectNoAxeViolations(alan);
  await alan.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(alan);
  await alan.screenshot({ path: `${SHOTS}/room-unmuted-390.png`, fullPage: true });
});
