import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { OutgoingHttpHeader } from 'node:http';

/**
 * Sets helmet's security headers, configured by `options` (our CSP and the rest), on every
 * answer. They are the same for every request, yet @fastify/helmet builds helmet's middleware
 * again for each one, parsing the CSP, in two hooks; so they are worked out once at start-up, by
 * @fastify/helmet itself (`helmetHeaders`), and one hook sets them, as it did, on the raw
 * response before anything else runs (decision 019).
 */
export async function installSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<void> {
  const headers = Object.entries(await helmetHeaders(options));
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}

/**
 * The headers @fastify/helmet sets with `options`: what one request to a throwaway server that
 * registers it holds once helmet's hooks have run.
 */
export async function helmetHeaders(
  options: FastifyHelmetOptions,
): Promise<Record<string, OutgoingHttpHeader>> {
  const probe = Fastify();
  let headers: Record<string, OutgoingHttpHeader> = {};
  await probe.register(helmet, options);
  // Added after helmet's hooks, so it runs after them; nothing else has set a header by then.
  probe.addHook('onRequest', (_request, reply, done) => {
    headers = { ...reply.raw.getHeaders() } as Record<string, OutgoingHttpHeader>;
    done();
  });
  probe.get('/', async () => '');
  await probe.inject('/');
  await probe.close();
  return headers;
}
