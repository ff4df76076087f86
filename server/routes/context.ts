import type { Auth } from '../auth/auth.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Embedder } from '../embeddings/embedder.ts';
import type { InsightRecorder } from '../insights/recorder.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Mailer } from '../mail/mailer.ts';

/**
 * What every route plugin receives: the configuration, the open database, the auth instance,
 * the mailer, the job queue, the clock (tests set the clock to try rules that depend on the
 * time of day) and the embedder.
 */
export interface RouteContext {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
  mailer: Mailer;
  jobs: JobQueue;
  now: () => Date;
  /** The library's extra words for the chat's abuse matcher. */
  moderationWords: readonly string[];
  /**
   * The app's one embedder (search by meaning): the embedding job stores its vectors, and a
   * search embeds its query with it, so both are of `embedder.model`. Ask it only when
   * `database.searchByMeaning.available`: otherwise its model must never be loaded.
   */
  embedder: Embedder;
  /** Library insights' per-process counter of searches, views and opens (issue 27). */
  insights: InsightRecorder;
}
