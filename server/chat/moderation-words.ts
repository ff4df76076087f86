import { readFile } from 'node:fs/promises';
import { parseWordList } from '#contract/moderation.ts';
import { ConfigError, type Config } from '../config.ts';

/**
 * The words the library adds to the abuse matcher: `MODERATION_WORDS` and the entries of
 * `MODERATION_WORDS_FILE`. A file that cannot be read stops the start-up, naming the variable,
 * rather than running a chat with less moderation than the library asked for.
 */
export async function loadModerationWords(config: Config): Promise<string[]> {
  const words = [...config.moderation.words];
  const file = config.moderation.wordsFile;
  if (file) {
    try {
      words.push(...parseWordList(await readFile(file, 'utf8')));
    } catch (error) {
      throw new ConfigError([
        `MODERATION_WORDS_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      ]);
    }
  }
  // The matcher ignores case, so 'Word' and 'word' are one entry (and one in the browser's copy).
  return [...new Set(words.map((word) => word.toLowerCase()))];
}
