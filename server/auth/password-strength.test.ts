import { describe, expect, it } from 'vitest';
import { Refusal } from '../refusal.ts';
import {
  judgePassword,
  MIN_PASSWORD_SCORE,
  passwordUserInputs,
  rejectWeakPassword,
  weakPasswordMessage,
} from './password-strength.ts';

const ada = {
  libraryName: 'Campus Books',
  email: 'ada.lovelace@uni.example',
  names: ['Ada', 'Lovelace'],
};
const nobody = { libraryName: 'Campus Books' };

describe('password strength (zxcvbn)', () => {
  it('refuses passwords from the leaked-password lists, whatever their case', async () => {
    for (const password of ['Password123', 'qwertyuiop', 'iloveyou1', 'letmein123', '12345678']) {
      expect(await weakPasswordMessage(password, nobody), password).toMatch(
        /^This password is too easy to guess\. /,
      );
    }
    expect(await weakPasswordMessage('password123', nobody)).toBe(
      'This password is too easy to guess. This is a commonly used password. Add more words that are less common.',
    );
  });

  it("refuses a password built on the person's name or e-mail", async () => {
    // Strong for a stranger: only the person's own names make it weak.
    expect((await judgePassword('AdaLovelace1815', nobody)).score).toBeGreaterThanOrEqual(
      MIN_PASSWORD_SCORE,
    );
    for (const password of ['AdaLovelace1815', 'ada.lovelace@uni.example', 'adalovelace2024']) {
      expect(await weakPasswordMessage(password, ada), password).toBe(
        'This password is too easy to guess. Passwords with your name, your e-mail or the library’s name in them are easy to guess. Add more words that are less common.',
      );
    }
  });

  it("refuses a password built on the library's name, the configured one and the product's", async () => {
    expect(
      (await judgePassword('campusbooks2024', { libraryName: 'Elsewhere' })).score,
    ).toBeGreaterThanOrEqual(MIN_PASSWORD_SCORE);
    expect(await weakPasswordMessage('campusbooks2024', nobody)).toMatch(/library’s name/);
    expect(await weakPasswordMessage('DigiLibrary2024!', nobody)).toMatch(/library’s name/);
    expect(await weakPasswordMessage('digilibrary', nobody)).toMatch(/library’s name/);
  });

  it('accepts a passphrase of uncommon words, and every password the tests and demos use', async () => {
    expect(await weakPasswordMessage('purple monkey dishwasher', ada)).toBeUndefined();
    for (const password of [
      'correct horse battery',
      'a long enough passphrase',
      'librarian e2e passphrase',
      'a brand new passphrase',
    ]) {
      expect(await weakPasswordMessage(password, ada), password).toBeUndefined();
    }
  });

  it('refuses with a 400 that names the password field', async () => {
    const refusal = await rejectWeakPassword('Password123', nobody).catch((error) => error);
    expect(refusal).toBeInstanceOf(Refusal);
    expect(refusal).toMatchObject({
      statusCode: 400,
      errors: [{ path: 'password', message: expect.stringMatching(/too easy to guess/) }],
    });
    await expect(rejectWeakPassword('purple monkey dishwasher', nobody)).resolves.toBeUndefined();
  });

  it('judges passwords asked for at the same time, each on its own', async () => {
    const verdicts = await Promise.all(
      ['password', 'purple monkey dishwasher', 'qwerty123', 'a long enough passphrase'].map(
        async (password) => (await judgePassword(password, nobody)).score >= MIN_PASSWORD_SCORE,
      ),
    );
    expect(verdicts).toEqual([false, true, false, true]);
  });

  it('counts names, e-mail and library name whole, run together and word by word', () => {
    expect(
      passwordUserInputs({
        libraryName: 'Digi Library',
        email: 'Grace.Hopper@Uni.Example',
        names: ['Grace', 'Hopper'],
      }),
    ).toEqual([
      'digi library',
      'digilibrary',
      'digi',
      'library',
      'grace.hopper@uni.example',
      'gracehopperuniexample',
      'grace',
      'hopper',
      'uni',
      'example',
      'grace.hopper',
      'gracehopper',
    ]);
  });
});
