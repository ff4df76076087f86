import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';

/** What every route plugin receives: the configuration and the open database. */
export interface RouteContext {
  config: Config;
  database: DatabaseHandle;
}
