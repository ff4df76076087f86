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

/** The subject of the mail that verifies a new account's address (decision 026). */
export const VERIFICATION_SUBJECT = 'Verify your e-mail address for Digi Library';

/**
 * Registers `person` through the API and, unless `verified: false`, opens the verification link
 * mailed to them (`openVerificationLink`). With a page's `request`, the page is signed in
 * afterwards (they share cookies); with the standalone `request` fixture, only the account exists.
 */
export async function registerViaApi(
  request: APIRequestContext,
  baseURL: string,
  person: Person,
  { verified = true }: { verified?: boolean } = {},
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
  if (verified) await openVerificationLink(request, person.email);
}

/** The verification link in the newest verification mail to `email`, once one has arrived. */
export async function verificationLink(email: string): Promise<string> {
  const mail = await waitForMail(email, { subject: VERIFICATION_SUBJECT });
  const link = /http:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no verification link in the mail to ${email}:\n${mail.text}`);
  return link;
}

/** A documentation address (RFC 5737) that stands for the person of `email`. */
function addressOf(email: string): string {
  let hash = 0;
  for (const char of email) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `203.0.113.${hash % 250}`;
}

/** Opens the link mailed to `email` with `request`, as its person would in their browser. */
export async function openVerificationLink(
  request: APIRequestContext,
  email: string,
): Promise<void> {
  // From the person's own address, as registering was (registerViaApi): better-auth limits each
  // address's requests, and one address opening every account's link would exhaust it.
  const opened = await request.get(await verificationLink(email), {
    maxRedirects: 0,
    headers: { 'x-forwarded-for': addressOf(email) },
  });
  if (opened.status() !== 302)
    throw new Error(`the verification link answered ${opened.status()}: ${await opened.text()}`);
}

/**
 * Signs `person` up through the two steps of the sign-up screen with plain academic details; the
 * page is on their home afterwards.
 */
export async function signUpThroughForm(page: Page, person: Person): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('First name').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByLabel('Phone number').fill(person.phoneNumber);
  await page.getByLabel(person.role === 'faculty' ? 'Faculty' : 'Student').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Institution name').fill('Campus University');
  await page.getByLabel('Department').fill('Mathematics');
  await page.getByLabel('Student ID').fill(person.role === 'faculty' ? 'F-7' : 'S-1918');
  await page.getByLabel('Graduation year').fill('2030');
  await page.getByRole('button', { name: 'Create Account' }).click();
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

/** Each received file parsed once: every registration adds one, and tests wait for theirs. */
const parsed = new Map<string, Promise<ParsedMail>>();
const parsedMail = (file: string): Promise<ParsedMail> => {
  let mail = parsed.get(file);
  if (!mail) {
    mail = readFile(file).then((raw) => simpleParser(raw));
    parsed.set(file, mail);
    // A file caught while the sink was still writing it is read again next time.
    void mail.then((each) => mailRecipients(each).length === 0 && parsed.delete(file));
  }
  return mail;
};
const fileOrder = (name: string) => Number(name.split('-')[0]) || 0;

/**
 * Waits for the e2e SMTP server to receive a message to `to` (whose subject matches `subject`,
 * when given), and returns it parsed; of several, the newest.
 */
export async function waitForMail(
  to: string,
  { subject, timeoutMs = 10_000 }: { subject?: string | RegExp; timeoutMs?: number } = {},
): Promise<ParsedMail> {
  const folder = process.env.E2E_MAIL_DIR;
  if (!folder) throw new Error('E2E_MAIL_DIR is not set: run through playwright.config.ts');
  const matches = (text = '') =>
    subject === undefined || (typeof subject === 'string' ? text === subject : subject.test(text));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // The sink names each file `<ms>-<count>.eml`: in that order, the last match is the newest.
    const files = (await readdir(folder).catch(() => [] as string[])).sort(
      (a, b) => fileOrder(a) - fileOrder(b) || a.localeCompare(b),
    );
    let newest: ParsedMail | undefined;
    for (const file of files) {
      const mail = await parsedMail(path.join(folder, file));
      if (mailRecipients(mail).includes(to.toLowerCase()) && matches(mail.subject)) newest = mail;
    }
    if (newest) return newest;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}
