import {
  newPerson,
  registerViaApi,
  signInThroughForm,
  signUpThroughForm,
  waitForMail,
} from './accounts.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

test.describe('sign-up', () => {
  test('a student signs up in two steps and lands on the student home', async ({ page }) => {
    const person = newPerson();
    await page.goto('/signup');
    await expect(page.getByText('Step 1 of 2')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await expectNoAxeViolations(page);

    // Step 1 refuses what is missing, field by field.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();

    await page.getByLabel('First name').fill(person.firstName);
    await page.getByLabel('Last name').fill(person.lastName);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Phone number').fill(person.phoneNumber);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(
      page.getByText('Password must be at least 8 characters', { exact: true }).last(),
    ).toBeVisible();
    await page.getByLabel('Password').fill(person.password);
    await page.getByLabel('Student').check();
    await page.getByRole('button', { name: 'Next' }).click();

    await expect(page.getByText('Step 2 of 2')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('Institution name').fill('Campus University');
    await page.getByLabel('Department').fill('Computing');
    await page.getByLabel('Student ID').fill('S-1001');
    await page.getByLabel('Graduation year').fill('2031');

    // Tags: Enter or Add adds, blanks and repeats are ignored, × removes.
    const fields = page.getByLabel('Fields of study', { exact: true });
    await fields.fill('  Computer Science ');
    await fields.press('Enter');
    await fields.fill('computer science');
    await page.getByRole('button', { name: 'Add fields of study' }).click();
    await fields.fill('   ');
    await fields.press('Enter');
    await fields.fill('Statistics');
    await fields.press('Enter');
    const fieldTags = page
      .getByRole('list', { name: 'Fields of study added' })
      .getByRole('listitem');
    await expect(fieldTags).toHaveText(['Computer Science×', 'Statistics×']);
    await page.getByRole('button', { name: 'Remove Statistics' }).click();
    await expect(fieldTags).toHaveText(['Computer Science×']);
    await page.getByLabel('Academic interests', { exact: true }).fill('Compilers');
    await page.getByLabel('Academic interests', { exact: true }).press('Enter');

    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Graduation year must be between 2023 and 2030')).toBeVisible();
    await page.getByLabel('Graduation year').fill('2027');

    // Back keeps what step 1 holds.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByLabel('Email')).toHaveValue(person.email);
    await page.getByRole('button', { name: 'Next' }).click();
    // Next keeps what step 2 holds, tags included.
    await expect(page.getByLabel('Graduation year')).toHaveValue('2027');
    await expect(fieldTags).toHaveText(['Computer Science×']);
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page).toHaveURL(/\/userprofile$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      `Welcome, ${person.firstName}`,
    );
    await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
      'href',
      '/userprofile/openlibrary',
    );
    await expect(page.getByRole('link', { name: 'Discussion Forum' })).toHaveAttribute(
      'href',
      '/userprofile/discussion-forum',
    );
    for (const name of ['Research Papers', 'Course Materials', 'Books', 'Journals']) {
      await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Journals', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Journals', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('heading', { name: 'Journals', level: 3 })).toBeVisible();
    await expectNoAxeViolations(page);

    const me = await (await page.request.get('/api/users/me')).json();
    expect(me.user).toMatchObject({
      email: person.email,
      department: 'Computing',
      studentId: 'S-1001',
      graduationYear: 2027,
      academicProfile: { fields: ['Computer Science'], interests: ['Compilers'] },
    });
  });

  test('a faculty member signs up and lands on the faculty home with its impact figures', async ({
    page,
  }) => {
    const person = newPerson({ role: 'faculty', firstName: 'Alan' });
    await signUpThroughForm(page, person);

    await expect(page).toHaveURL(/\/facultyprofile$/);
    await expect(page.getByRole('link', { name: 'Start Publishing' })).toHaveAttribute(
      'href',
      '/publish',
    );
    await expect(page.getByRole('link', { name: 'Book Requests' })).toHaveAttribute(
      'href',
      '/requests',
    );
    await expect(page.getByRole('heading', { name: 'Our Impact' })).toBeVisible();
    await expect(page.locator('[data-counter]')).toHaveText(['1,000+', '500+', '50+', '10,000+'], {
      timeout: 5_000,
    });
    await expectNoAxeViolations(page);
  });

  test('step 1 sends a known e-mail to its profile, which asks to sign in first', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = newPerson({ role: 'faculty' });
    await registerViaApi(request, baseURL!, person);
    await page.goto('/signup');
    await page.getByLabel('First name').fill('Someone');
    await page.getByLabel('Last name').fill('Else');
    await page.getByLabel('Email').fill(person.email.toUpperCase());
    await page.getByLabel('Password').fill('another long password');
    await page.getByLabel('Phone number').fill('+1 555 010 9999');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByText('Please sign in to continue.')).toBeVisible();
    await signInThroughForm(page, person);
    await expect(page).toHaveURL(/\/facultyprofile$/);
  });

  test('opened at another address of the server, step 1 says which address to open', async ({
    page,
    baseURL,
  }) => {
    // The server's address is 127.0.0.1 here; localhost reaches the same server, but is not it.
    const other = baseURL!.replace('127.0.0.1', 'localhost');
    const person = newPerson();
    await page.goto(`${other}/signup`);
    await page.getByLabel('First name').fill(person.firstName);
    await page.getByLabel('Last name').fill(person.lastName);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByLabel('Phone number').fill(person.phoneNumber);
    await page.getByLabel('Student').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      `Error checking user: This page was opened at another address of this server. Open ${baseURL} instead.`,
    );
  });
});

test.describe('sign-in and sign-out', () => {
  test('Remember me keeps the session for 30 days; sign-out ends it', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = newPerson();
    await registerViaApi(request, baseURL!, person);
    await page.goto('/signin');
    await expectNoAxeViolations(page);
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Sign up', exact: true }),
    ).toHaveAttribute('href', '/signup');
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeDisabled();
    await expect(
      page.getByText('Google sign-in is not set up for this library yet.'),
    ).toBeVisible();

    await signInThroughForm(page, person, { rememberMe: true });
    await expect(page).toHaveURL(/\/userprofile$/);
    const session = (await page.context().cookies()).find(
      (cookie) => cookie.name === 'digi.session_token',
    );
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    const days = ((session?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThan(31);

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    await page.goto('/userprofile');
    await expect(page).toHaveURL(/\/signin$/);
  });

  test('without Remember me the session ends with the browser', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = newPerson();
    await registerViaApi(request, baseURL!, person);
    await page.goto('/signin');
    await signInThroughForm(page, person);
    await expect(page).toHaveURL(/\/userprofile$/);
    const session = (await page.context().cookies()).find(
      (cookie) => cookie.name === 'digi.session_token',
    );
    expect(session?.expires).toBe(-1);
  });

  test('wrong credentials say "Invalid credentials"', async ({ page }) => {
    await page.goto('/signin');
    await signInThroughForm(page, newPerson());
    await expect(page.getByRole('alert')).toHaveText('Invalid credentials');
  });
});

test.describe('forgotten password', () => {
  test('a reset link mailed over SMTP sets a new password and signs out other devices', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const person = newPerson();
    await registerViaApi(request, baseURL!, person);
    // Another device stays signed in until the reset.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(`${baseURL}/signin`);
    await signInThroughForm(otherPage, person);
    await expect(otherPage).toHaveURL(/\/userprofile$/);

    await page.goto('/signin');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
    await expectNoAxeViolations(page);
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('If an account exists for that e-mail');

    const mail = await waitForMail(person.email, { subject: /^Reset your/ });
    const text = mail.text ?? '';
    const link = /http:\/\/127\.0\.0\.1:\d+\/api\/auth\/reset-password\/\S+/.exec(text)?.[0];
    expect(link, text).toBeTruthy();
    await page.goto(link!);
    await expect(page).toHaveURL(/\/forgot-password\?token=/);
    await page.getByLabel('New password', { exact: true }).fill('a new and better passphrase');
    await page.getByLabel('Confirm new password').fill('a new and different passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByText('The passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm new password').fill('a new and better passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'Your password has been changed. You can sign in with it now.',
    );
    await expectNoAxeViolations(page);

    await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
    await signInThroughForm(page, { ...person, password: 'a new and better passphrase' });
    await expect(page).toHaveURL(/\/userprofile$/);

    await otherPage.goto(`${baseURL}/userprofile`);
    await expect(otherPage).toHaveURL(/\/signin$/);
    await other.close();
  });

  test('an expired or broken link says so and offers a new one', async ({ page }) => {
    await page.goto('/forgot-password?error=INVALID_TOKEN');
    await expect(page.getByRole('alert')).toHaveText(
      'This reset link is invalid or has expired. Please ask for a new one.',
    );
    await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
  });
});

test.describe('guards', () => {
  test('a guest is sent to sign in and brought back afterwards', async ({
    page,
    request,
    baseURL,
  }) => {
    const person = newPerson();
    await registerViaApi(request, baseURL!, person);
    await page.goto('/userprofile/openlibrary');
    await expect(page).toHaveURL(/\/signin$/);
    await signInThroughForm(page, person);
    await expect(page).toHaveURL(/\/userprofile\/openlibrary$/);
  });

  const matrix = [
    { role: 'student', path: '/userprofile', allowed: true },
    { role: 'student', path: '/facultyprofile', allowed: false },
    { role: 'student', path: '/publish', allowed: false },
    { role: 'student', path: '/requests', allowed: false },
    { role: 'student', path: '/offline-book-service', allowed: true },
    { role: 'faculty', path: '/facultyprofile', allowed: true },
    { role: 'faculty', path: '/publish', allowed: true },
    { role: 'faculty', path: '/requests', allowed: true },
    { role: 'faculty', path: '/userprofile', allowed: false },
    { role: 'faculty', path: '/userprofile/discussion-forum', allowed: true },
  ] as const;
  for (const { role, path, allowed } of matrix) {
    test(`${role} on ${path}: ${allowed ? 'allowed' : 'not allowed'}`, async ({
      page,
      baseURL,
    }) => {
      await registerViaApi(page.request, baseURL!, newPerson({ role }));
      await page.goto(path);
      if (allowed) {
        await expect(page.getByText('This page is not available to your account')).toHaveCount(0);
        await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      } else {
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(
          'This page is not available to your account',
        );
        await page.getByRole('link', { name: 'Go to your home' }).click();
        await expect(page).toHaveURL(role === 'student' ? /\/userprofile$/ : /\/facultyprofile$/);
      }
    });
  }
});
