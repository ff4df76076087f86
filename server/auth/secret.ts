import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/**
 * The secret that signs session cookies and tokens. Production sets AUTH_SECRET (config refuses to
 * start without it); elsewhere a random secret is made once and kept in DATA_DIR, so
 * `npm start` needs no setup and sessions survive restarts.
 */
export function resolveAuthSecret(config: Config): string {
  if (config.authSecret) return config.authSecret;
  const file = path.join(config.dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
