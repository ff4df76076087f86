import type { HealthResponse } from '#contract/http/health.ts';
import type { DatabaseKind } from '../db/client.ts';

/** The health answer once the database has answered. */
export function presentHealth(database: DatabaseKind): HealthResponse {
  return { status: 'ok', database };
}
