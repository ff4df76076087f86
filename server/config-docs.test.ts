import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from './config.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('configuration documentation', () => {
  it('.env.example lists exactly the variables the server reads, and its values are valid', () => {
    const text = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const entries = text
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map(
        (line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const,
      );
    expect(entries.map(([name]) => name).sort()).toEqual([...CONFIG_VARIABLES].sort());
    expect(() => loadConfig(Object.fromEntries(entries))).not.toThrow();
  });

  it('the README configuration table lists exactly the same variables', () => {
    const text = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const names = [...text.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((match) => match[1]);
    expect(names.sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});
