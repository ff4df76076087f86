import { HttpError } from '../http/errors.ts';

/**
 * Passwords that appear near the top of every leaked-password list, plus the obvious ones for
 * this product. Only those of 8 characters or more matter: shorter ones fail the length rule.
 * Compared case-insensitively.
 */
const COMMON_PASSWORDS = new Set(
  `password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword
  12345678 123456789 1234567890 0123456789 87654321 987654321 12341234 11223344 123123123
  11111111 00000000 22222222 88888888 99999999 aaaaaaaa abcdefgh abcd1234 abc12345 a1b2c3d4
  qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 1q2w3e4r 1q2w3e4r5t q1w2e3r4 1qaz2wsx
  zaq12wsx qazwsxedc asdfghjk asdfghjkl asdf1234 asdfasdf zxcvbnm1 iloveyou iloveyou1
  sunshine sunshine1 princess princess1 football football1 baseball baseball1 welcome1
  welcome123 admin123 administrator letmein1 letmein123 trustno1 superman starwars whatever
  dragon12 monkey12 shadow12 master12 michael1 jennifer computer internet changeme changeme1
  charlie1 freedom1 mustang1 access14 batman12 liverpool chelsea1 arsenal1 blink182
  hello123 test1234 testtest secret12 secret123 default1 guest123 login123 student1
  student123 teacher1 library1 library123 digilibrary university college1 school123
  myspace1 linkedin facebook google123 samsung1 iphone12`
    .split(/\s+/)
    .filter(Boolean),
);

/** True when `password` is one of the most commonly used passwords. */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}

/** Refuses a common password with a 400 naming the password field. */
export function rejectCommonPassword(password: string): void {
  if (!isCommonPassword(password)) return;
  throw new HttpError(400, 'Some fields are missing or invalid.', [
    {
      path: 'password',
      message: 'This password is too common. Choose one that is harder to guess.',
    },
  ]);
}
