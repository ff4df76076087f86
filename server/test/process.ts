import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../scripts/lib/free-port.ts';
import { registrationFactory } from './factories.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** A real server process started the way `npm start` starts it. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  /** Parsed JSON log lines so far. */
  logs(): Record<string, unknown>[];
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How a test starts the server: `server/index.ts` directly unless it says otherwise. */
export interface StartOptions {
  /** The command and its arguments, e.g. `['npm', 'start']` to go through npm's own start. */
  command?: readonly [string, ...string[]];
  /** In a process group of its own, so that everything the command starts can be found. */
  detached?: boolean;
  /** How long it may take to say it listens (a build before it takes longer). */
  startTimeoutMs?: number;
}

/**
 * Spawns `server/index.ts` (or `options.command`) with `env` on a free port (or `env.PORT`, to
 * restart a server where its clients expect it) and waits until it says it listens.
 */
export async function startServerProcess(
  env: Record<string, string>,
  {
    command = [process.execPath, '--import', 'tsx', 'server/index.ts'],
    detached = false,
    startTimeoutMs = 45_000,
  }: StartOptions = {},
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const [file, ...args] = command;
  const child = spawn(file, args, {
    cwd: ROOT,
    detached,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      AUTH_SECRET: 'process-test-secret-0123456789abcdefghij',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  await new Promise<void>((resolve, reject) => {
    // A server that never says it listens is stopped too: nobody else holds its handle.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Digi Library is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    logs: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Registers a new student on a running `server` over HTTP and returns their session cookie; the
 * e-mail address is verified through the mailed link (`openVerificationLink`) unless
 * `verified: false`.
 */
export async function registerOn(
  server: ServerProcess,
  overrides: Parameters<typeof registrationFactory>[0] = {},
  headers: Record<string, string> = {},
  { verified = true }: { verified?: boolean } = {},
): Promise<string> {
  const registration = registrationFactory(overrides);
  const response = await fetch(`${server.url}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, ...headers },
    body: JSON.stringify(registration),
  });
  if (response.status !== 200) {
    throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  }
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  if (verified) await openVerificationLink(server, registration.email.toLowerCase(), cookie);
  return cookie;
}

/**
 * Opens the verification link `server` mailed to `email`, as its person would: without SMTP_URL
 * the server writes mail to its outbox folder and logs each message's link.
 */
export async function openVerificationLink(
  server: ServerProcess,
  email: string,
  cookie: string,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const link = server
      .logs()
      .map(verificationLinkIn)
      .find((found) => found?.to === email)?.link;
    if (link) return followVerificationLink(link, cookie);
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email} in the log`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The verification link in one of the server's JSON log lines and whom it was mailed to (the
 * line it logs for each message written to the outbox folder); undefined for any other line.
 */
export function verificationLinkIn(
  line: Record<string, unknown>,
): { to: string; link: string } | undefined {
  return line.msg === 'mail written to the outbox' &&
    typeof line.to === 'string' &&
    typeof line.link === 'string' &&
    line.link.includes('/api/auth/verify-email?')
    ? { to: line.to, link: line.link }
    : undefined;
}

/**
 * Opens a verification link with its person's session `cookie` (and `headers`, such as the
 * address a proxy forwards); it must redirect to their home without an error.
 */
export async function followVerificationLink(
  link: string,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const opened = await fetch(link, { headers: { ...headers, cookie }, redirect: 'manual' });
  await opened.body?.cancel();
  const location = opened.headers.get('location') ?? '';
  if (opened.status !== 302 || new URL(location, link).searchParams.has('error')) {
    throw new Error(`the verification link answered ${opened.status} ${location}`);
  }
}

/** Runs `server/index.ts` to completion (for start-up failures) and returns its exit code and output. */
export function runServerToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
