import type { Config } from '../config.ts';

/**
 * Origins a browser may call us from: the public URL, and Vite's dev server while developing.
 * Sockets and state-changing calls from any other origin are refused.
 */
export function allowedOrigins(config: Config): Set<string> {
  const origins = new Set([new URL(config.publicUrl).origin]);
  if (config.env === 'development') origins.add('http://localhost:5173');
  return origins;
}
