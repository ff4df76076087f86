import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

let nextAddress = 1;

/**
 * A browser-like client for `app.inject`: keeps the cookies the server sets, sends them back,
 * and sends the app's own Origin on state-changing calls as a browser would.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  /** Each client comes from its own address, so per-IP rate limits see separate people. */
  readonly ip = `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}`;

  constructor(
    private readonly app: FastifyInstance,
    private readonly origin: string,
  ) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const method = (options.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (method !== 'GET' && method !== 'HEAD' && headers.origin === undefined)
      headers.origin = this.origin;
    if (this.cookies.size > 0 && headers.cookie === undefined) {
      headers.cookie = this.cookieHeader();
    }
    const response = await this.app.inject({ remoteAddress: this.ip, ...options, headers });
    for (const cookie of setCookies(response)) {
      const [pair] = cookie.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (value === '' || /max-age=0\b/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** The `Cookie` header this client sends (for sockets opened beside it). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, body: unknown, headers: Record<string, string> = {}) {
    return this.request({
      method: 'POST',
      url,
      payload: body as InjectOptions['payload'],
      headers,
    });
  }

  patch(url: string, body: unknown, headers: Record<string, string> = {}) {
    return this.request({
      method: 'PATCH',
      url,
      payload: body as InjectOptions['payload'],
      headers,
    });
  }

  delete(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'DELETE', url, headers });
  }
}

/** Every Set-Cookie header of a response, as an array. */
export function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}
