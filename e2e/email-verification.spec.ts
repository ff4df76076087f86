import { emailNotVerifiedMessage } from '#contract/http/users.ts';
import type { Page } from '@playwright/test';
import { newPerson, signUpThroughForm, verificationLink } from './accounts.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

/** Asks for the first book with a free copy, tomorrow at 9:00, on the reservation screen. */
async function reserveABook(page: Page): Promise<void> {
  await page.goto('/offline-book-service');
  await page.getByRole('radio', { disabled: false }).first().check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('group', { name: 'Date' }).getByRole('radio').nth(1).check();
  await page.getByRole('radio', { name: '9:00-9:30 AM' }).check();
  await page.getByRole('button', { name: 'Confirm' }).click();
}

test.describe('e-mail verification', () => {
  test('a new student is told to verify before reserving or requesting, and reserves once the mailed link is opened', async ({
    page,
  }) => {
    const person = newPerson({ firstName: 'Katherine', lastName: 'Johnson' });
    await signUpThroughForm(page, person);

    // Signed in at once, on a home that says what to do.
    await expect(page).toHaveURL(/\/userprofile$/);
    const notice = page.getByRole('region', { name: 'Verify your e-mail address' });
    await expect(notice).toContainText(`we sent a link to ${person.email}`);
    await expectNoAxeViolations(page);
    // The button is reached from the keyboard and says what it did.
    const again = notice.getByRole('button', { name: 'Send the link again' });
    await again.focus();
    await page.keyboard.press('Enter');
    await expect(notice.getByRole('status')).toHaveText(
      `We sent a new link to ${person.email}. It works for 24 hours.`,
    );

    // Reserving is refused with what to do, in the screen's own error place.
    await reserveABook(page);
    await expect(page.getByRole('alert')).toHaveText(emailNotVerifiedMessage(person.email));
    await expectNoAxeViolations(page);

    // So is filing a request.
    await page.goto('/resourse-req');
    await page.getByLabel('Title').fill(`Orbital Mechanics ${Date.now()}`);
    await page.getByRole('button', { name: 'Submit request' }).click();
    await expect(page.getByRole('alert')).toHaveText(emailNotVerifiedMessage(person.email));

    // The mailed link brings the person home, signed in, and says it worked.
    await page.goto(await verificationLink(person.email));
    await expect(page).toHaveURL(/\/userprofile\?verified=email$/);
    await expect(page.getByRole('status').first()).toHaveText(
      'Your e-mail address is verified. You can now reserve books, request resources and post in the discussion forum.',
    );
    await expect(page.getByRole('region', { name: 'Verify your e-mail address' })).toHaveCount(0);
    await expectNoAxeViolations(page);

    await reserveABook(page);
    await expect(page.getByRole('heading', { name: 'Reservation successful!' })).toBeVisible();
  });
});
