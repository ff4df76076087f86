import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { loadModerationWords } from './moderation-words.ts';

describe('loadModerationWords', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'digi-words-'));

  it('adds the entries of MODERATION_WORDS_FILE to MODERATION_WORDS, once each', async () => {
    const file = path.join(folder, 'words.txt');
    writeFileSync(file, '# campus additions\nGrimbleflax\n\nsnorkwobble\ngrimbleflax\n');
    const words = await loadModerationWords(
      loadConfig({ MODERATION_WORDS: 'grimbleflax', MODERATION_WORDS_FILE: file }),
    );
    expect([...words].sort()).toEqual(['grimbleflax', 'snorkwobble']);
  });

  it('stops the start-up, naming the variable, when the file cannot be read', async () => {
    const missing = path.join(folder, 'nope.txt');
    const loading = loadModerationWords(loadConfig({ MODERATION_WORDS_FILE: missing }));
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(
      /MODERATION_WORDS_FILE: cannot read .*nope\.txt \(ENOENT\)/,
    );
  });
});
