import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { mailRecipients } from '#server/test/mail.ts';

let counter = 0;

/** A person who can sign up; unique per call. */
export function newPerson(overrides: Partial<Person> = {}): Person {
  counter += 1;
  const stamp = `${Date.now()}${counter}${Math.floor(Math.random() * 1000)}`;
  return {
    firstName: 'Grace',
    lastName: 'Hopper',
    email: `grace.${stamp}@uni.example`,
    password: 'a long enough passphrase',
    phoneNumber: '+1 555 010 3000',
    role: 'student',
    ...overrides,
  };
}

/** The librarian e2e/data-template.ts creates with `npm run user:create` before the server starts. */
export const E2E_LIBRARIAN = {
  email: 'desk.librarian@uni.example',
  password: 'librarian e2e passphrase',
  firstName: 'Dana',
  lastName: 'Okafor',
} as const;

/** What the sign-up form asks in step 1. */
export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  phoneNumber: string;
  role: 'student' | 'faculty';
}

/**
 * Registers `person` through the API. With a page's `request`, the page is signed in afterwards
 * (they share cookies); with the standalone `request` fixture, only the account exists.
 */
export async function registerViaApi(
  request: APIRequestContext,
  baseURL: string,
  person: Person,
): Promise<void> {
  const response = await request.post('/api/users/register', {
    // A different address per account, as many people signing up would have; the e2e server
    // trusts X-Forwarded-For like a deployment behind a proxy (TRUST_PROXY).
    headers: { origin: baseURL, 'x-forwarded-for': `198.51.100.${counter % 250}` },
    data: {
      ...person,
      institutionName: 'Campus University',
      department: 'Computing',
      studentId: 'S-42',
      graduationYear: 2027,
      academicProfile: { fields: ['Computing'], interests: [] },
      signupMethod: 'form',
    },
  });
  if (!response.ok())
    throw new Error(`registration failed: ${response.status()} ${await response.text()}`);
}

/** Signs `page` in through the sign-in screen. */
export async function signInThroughForm(
  page: Page,
  person: Person,
  { rememberMe = false } = {},
): Promise<void> {
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  if (rememberMe) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Waits for the e2e SMTP server to receive a message to `to`, and returns it parsed. */
export async function waitForMail(to: string, timeoutMs = 10_000): Promise<ParsedMail> {
  const folder = process.env.E2E_MAIL_DIR;
  if (!folder) throw new Error('E2E_MAIL_DIR is not set: run through playwright.config.ts');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const file of await readdir(folder).catch(() => [] as string[])) {
      const mail = await simpleParser(await readFile(path.join(folder, file)));
      if (mailRecipients(mail).includes(to.toLowerCase())) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}
