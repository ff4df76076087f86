/**
 * A real SMTP server for the end-to-end run: Playwright starts it beside the app, the app sends
 * its mail here (SMTP_URL), and each message lands in MAIL_DIR as an .eml file tests can read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.PORT);
const folder = process.env.MAIL_DIR;
if (!port || !folder) throw new Error('PORT and MAIL_DIR are required');
mkdirSync(folder, { recursive: true });

let count = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      count += 1;
      writeFileSync(path.join(folder, `${Date.now()}-${count}.eml`), Buffer.concat(chunks));
      callback();
    });
  },
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
