import type { HealthResponse } from '#contract/http/health.ts';
import type { DatabaseKind } from '../db/client.ts';
import type { SearchByMeaning } from '../db/vector.ts';

/** The health answer once the database has answered, with whether search by meaning is on. */
export function presentHealth(
  database: DatabaseKind,
  searchByMeaning: SearchByMeaning,
): HealthResponse {
  return {
    status: 'ok',
    database,
    searchByMeaning: searchByMeaning.available
      ? { available: true }
      : { available: false, reason: searchByMeaning.reason },
  };
}
