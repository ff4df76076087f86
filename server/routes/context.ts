import type { Auth } from '../auth/auth.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';

/** What every route plugin receives: the configuration, the open database and the auth instance. */
export interface RouteContext {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
}
