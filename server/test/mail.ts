import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server received, parsed by mailparser. */
export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  /** The message as it arrived, for failure messages. */
  raw: string;
  /** The plain-text body, decoded. */
  text: string;
  parsed: ParsedMail;
}

/** The addresses of a parsed message's To header, lower-cased. */
export function mailRecipients(mail: ParsedMail): string[] {
  const groups = mail.to === undefined ? [] : Array.isArray(mail.to) ? mail.to : [mail.to];
  return groups.flatMap((group) =>
    group.value.flatMap((entry) => (entry.address ? [entry.address.toLowerCase()] : [])),
  );
}

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startTestSmtpServer() {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            messages.push({
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              raw: raw.toString('utf8'),
              text: parsed.text ?? '',
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Waits for a message to `to` (with `subject`, when given), up to `timeoutMs`. */
    async waitFor(
      to: string,
      { subject, timeoutMs = 5_000 }: { subject?: string; timeoutMs?: number } = {},
    ): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find(
          (message) =>
            message.to.includes(to) &&
            (subject === undefined || message.parsed.subject === subject),
        );
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
