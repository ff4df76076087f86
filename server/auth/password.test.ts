import { readdirSync, readFileSync } from 'node:fs';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { describe, expect, it } from 'vitest';
import { createPasswordHasher, passwordHasher } from './password.ts';

describe('passwordHasher', () => {
  it('makes hashes better-auth verifies, and verifies better-auth’s', async () => {
    const ours = await passwordHasher.hash('correct horse battery');
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await verifyPassword({ hash: ours, password: 'correct horse battery' })).toBe(true);
    const theirs = await hashPassword('correct horse battery');
    expect(await passwordHasher.verify({ hash: theirs, password: 'correct horse battery' })).toBe(
      true,
    );
    expect(await passwordHasher.verify({ hash: theirs, password: 'correct horse batterY' })).toBe(
      false,
    );
  });

  it('normalises the password as better-auth does (NFKC)', async () => {
    const hash = await hashPassword('ﬁle cabinet'); // a ligature, "fi" after NFKC
    expect(await passwordHasher.verify({ hash, password: 'file cabinet' })).toBe(true);
  });

  it('refuses a malformed hash', async () => {
    await expect(passwordHasher.verify({ hash: 'no-colon', password: 'x' })).rejects.toThrow(
      'Invalid password hash',
    );
  });

  it('runs many at once on a bounded pool and keeps the answers apart', async () => {
    const hasher = createPasswordHasher({ threads: 2 });
    const hashes = await Promise.all(['a1', 'b2', 'c3'].map((word) => hasher.hash(`${word}-pass`)));
    const checks = await Promise.all(
      hashes.flatMap((hash, index) =>
        ['a1', 'b2', 'c3'].map(async (word, other) => {
          const ok = await hasher.verify({ hash, password: `${word}-pass` });
          return ok === (index === other);
        }),
      ),
    );
    expect(checks.every(Boolean)).toBe(true);
  });

  it('lets an idle thread go after a while, and starts one again when needed', async () => {
    const hasher = createPasswordHasher({ threads: 2, idleMs: 200 });
    const hashes = await Promise.all([hasher.hash('one-pass'), hasher.hash('two-pass')]);
    expect(hasher.threads).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(hasher.threads).toBe(0);
    expect(await hasher.verify({ hash: hashes[0]!, password: 'one-pass' })).toBe(true);
    expect(hasher.threads).toBe(1);
  });

  it.runIf(process.platform === 'linux')('lowers the priority of its threads only', async () => {
    const hasher = createPasswordHasher({ threads: 1, nice: 7 });
    await hasher.hash('warm up');
    const nices = readdirSync('/proc/self/task').map((task) => {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    expect(nices).toContain(7);
    const main = readFileSync('/proc/thread-self/stat', 'utf8');
    expect(Number(main.slice(main.lastIndexOf(')') + 2).split(' ')[16])).toBe(0);
  });
});
