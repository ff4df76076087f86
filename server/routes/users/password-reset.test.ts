import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_MESSAGE } from '#contract/http/users.ts';
import { outboxDirectory } from '../../mail/mailer.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';
import { mailRecipients, startTestSmtpServer } from '../../test/mail.ts';

const LINK =
  /http:\/\/localhost:3000\/api\/auth\/reset-password\/([A-Za-z0-9_-]+)\?callbackURL=%2Fforgot-password/;

const RESET_SUBJECT = 'Reset your Digi Library password';

describe.each(testDatabaseKinds())('password reset over SMTP on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
  let testApp: TestApp;
  const client = () => new TestClient(testApp.app, testApp.config.publicUrl);

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    testApp = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Digi Library <desk@uni.example>' },
    });
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });

  it('mails a link that sets a new password and ends every session of the account', async () => {
    const registration = registrationFactory();
    const first = client();
    await first.post('/api/users/register', registration);
    const second = client();
    await second.post('/api/users/login', {
      email: registration.email,
      password: registration.password,
    });

    const response = await client().post('/api/users/forgot-password', {
      email: registration.email.toUpperCase(),
    });
    expect(response.json()).toEqual({ success: true, message: FORGOT_PASSWORD_MESSAGE });

    const mail = await smtp.waitFor(registration.email, { subject: RESET_SUBJECT });
    expect(mail.parsed.from?.value).toEqual([
      { name: 'Digi Library', address: 'desk@uni.example' },
    ]);
    expect(mail.parsed.subject).toBe(RESET_SUBJECT);
    const token = LINK.exec(mail.text)?.[1];
    expect(token, mail.text).toBeTruthy();

    // The mailed link lands on the reset screen with its token.
    const landing = await client().get(
      `/api/auth/reset-password/${token}?callbackURL=%2Fforgot-password`,
    );
    expect(landing.statusCode).toBe(302);
    expect(landing.headers.location).toBe(`http://localhost:3000/forgot-password?token=${token}`);

    const weak = await client().post('/api/users/reset-password', { token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual([
      { path: 'password', message: 'Password must be at least 8 characters' },
    ]);

    // The link's account is known: its person's names count against the new password.
    const named = await client().post('/api/users/reset-password', {
      token,
      password: `${registration.firstName}${registration.lastName}1815`,
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().errors).toEqual([
      { path: 'password', message: expect.stringMatching(/your name, your e-mail/) },
    ]);

    const reset = await client().post('/api/users/reset-password', {
      token,
      password: 'a brand new passphrase',
    });
    expect(reset.json()).toEqual({
      success: true,
      message: 'Your password has been changed. You can sign in with it now.',
    });

    for (const browser of [first, second])
      expect((await browser.get('/api/users/me')).json()).toEqual({ user: null });
    const old = await client().post('/api/users/login', {
      email: registration.email,
      password: registration.password,
    });
    expect(old.statusCode).toBe(401);
    const fresh = await client().post('/api/users/login', {
      email: registration.email,
      password: 'a brand new passphrase',
    });
    expect(fresh.json()).toMatchObject({ success: true });

    const again = await client().post('/api/users/reset-password', {
      token,
      password: 'yet another passphrase',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(
      'This reset link is invalid or has expired. Please ask for a new one.',
    );
  });

  it('answers an unknown e-mail exactly like a known one, and mails nothing', async () => {
    const before = smtp.messages.length;
    const response = await client().post('/api/users/forgot-password', {
      email: 'nobody.at.all@uni.example',
    });
    expect(response.json()).toEqual({ success: true, message: FORGOT_PASSWORD_MESSAGE });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.length).toBe(before);
  });

  it('limits reset requests per e-mail', async () => {
    const registration = registrationFactory();
    await client().post('/api/users/register', registration);
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      answers.push(
        (await client().post('/api/users/forgot-password', { email: registration.email }))
          .statusCode,
      );
    }
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it('refuses a made-up token', async () => {
    const response = await client().post('/api/users/reset-password', {
      token: 'made-up-token-123',
      password: 'a fine passphrase',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('password reset without an SMTP server', () => {
  it('writes the message to DATA_DIR/outbox as an .eml file', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'digi-outbox-'));
    const testApp = await createTestApp('pglite', { env: { DATA_DIR: dataDir } });
    try {
      const browser = new TestClient(testApp.app, testApp.config.publicUrl);
      const registration = registrationFactory();
      await browser.post('/api/users/register', registration);
      await browser.post('/api/users/forgot-password', { email: registration.email });
      const folder = outboxDirectory(dataDir);
      // The sign-up's verification mail, and the reset mail.
      let files: string[] = [];
      for (let wait = 0; wait < 50 && files.length < 2; wait += 1) {
        files = await readdir(folder).catch(() => []);
        if (files.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(files).toHaveLength(2);
      expect(files.every((file) => file.endsWith('.eml'))).toBe(true);
      const mails = await Promise.all(
        files.map(async (file) => simpleParser(await readFile(path.join(folder, file)))),
      );
      const mail = mails.find((each) => each.subject === RESET_SUBJECT);
      expect(mail && mailRecipients(mail)).toEqual([registration.email]);
      expect(mail?.text).toMatch(LINK);
    } finally {
      await testApp.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
