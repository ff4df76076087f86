import type { Config } from '../config.ts';

/** Host names that all mean this machine. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The other spellings of a loopback public URL on the same scheme and port: `http://127.0.0.1:3000`
 * and `http://[::1]:3000` beside `http://localhost:3000`. They reach this very server, so a page
 * opened at one of them is ours, not another site's. None for a public URL that is not loopback.
 */
export function loopbackAliases(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [];
  return LOOPBACK_HOSTS.filter((host) => host !== url.hostname).map((host) => {
    const alias = new URL(url.origin);
    alias.hostname = host;
    return alias.origin;
  });
}

/**
 * Origins a browser may call us from: the public URL, and Vite's dev server while developing.
 * While developing, the public URL's other loopback spellings too (a person opens whichever
 * address they see first). Sockets and state-changing calls from any other origin are refused.
 */
export function allowedOrigins(config: Config): Set<string> {
  const origins = new Set([new URL(config.publicUrl).origin]);
  if (config.env === 'development') {
    origins.add('http://localhost:5173');
    for (const alias of loopbackAliases(config.publicUrl)) origins.add(alias);
  }
  return origins;
}
