import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

/** One outgoing message, in plain text. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** A link the message carries, logged when mail goes to the outbox folder. */
  link?: string;
  /** Files sent with it, such as a reservation's `.ics` calendar entry. */
  attachments?: { filename: string; content: string; contentType: string }[];
  /** Extra headers, such as a notice's `List-Unsubscribe`. */
  headers?: Record<string, string>;
  /**
   * A Message-ID that is the same each time this message is sent (`<notice-42@host>`): a resend
   * after a crash reads as the same message to mail programs, and in the outbox it names the file,
   * so a resend overwrites it instead of adding a second one.
   */
  messageId?: string;
}

/** Sends mail; how depends on configuration. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, for the start-up log. */
  describe(): string;
}

/** The folder of `.eml` files when no SMTP server is configured. */
export function outboxDirectory(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/**
 * Mail over SMTP when SMTP_URL is set (nodemailer); otherwise each message is written to
 * DATA_DIR/outbox/ as an `.eml` file any mail program opens, and its link is logged, so the
 * embedded default works without a mail server.
 */
export function createMailer(config: Config, logger: FastifyBaseLogger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    const host = new URL(config.smtpUrl).host;
    return {
      describe: () => `SMTP at ${host}`,
      async send(message) {
        await transport.sendMail({
          from: config.mailFrom,
          to: message.to,
          subject: message.subject,
          text: message.text,
          attachments: message.attachments,
          headers: message.headers,
          messageId: message.messageId,
        });
        logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }

  const builder = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  const folder = outboxDirectory(config.dataDir);
  return {
    describe: () => `files in ${folder}`,
    async send(message) {
      const info = await builder.sendMail({
        from: config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        attachments: message.attachments,
        headers: message.headers,
        messageId: message.messageId,
      });
      await mkdir(folder, { recursive: true });
      const file = path.join(
        folder,
        message.messageId
          ? `${message.messageId.replace(/[^A-Za-z0-9.@-]/g, '')}.eml`
          : `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      logger.info(
        { to: message.to, subject: message.subject, file, link: message.link },
        'mail written to the outbox',
      );
    },
  };
}
