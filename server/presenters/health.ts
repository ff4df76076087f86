import type { HealthResponse } from '#contract/http/health.ts';
import type { DatabaseKind } from '../db/client.ts';
import type { SearchByMeaning } from '../db/vector.ts';
import type { EmbeddingProgress } from '../embeddings/embed-items.ts';

/**
 * The health answer once the database has answered, with whether search by meaning is on and,
 * when it is and `progress` is given, how many items are embedded of how many.
 */
export function presentHealth(
  database: DatabaseKind,
  searchByMeaning: SearchByMeaning,
  progress?: EmbeddingProgress,
): HealthResponse {
  return {
    status: 'ok',
    database,
    searchByMeaning: searchByMeaning.available
      ? {
          available: true,
          ...(progress ? { embedded: progress.embedded, total: progress.total } : {}),
        }
      : { available: false, reason: searchByMeaning.reason },
  };
}
