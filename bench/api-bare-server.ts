/**
 * The API benchmark's baseline (`bench/api.ts` starts it as its own process): a bare Fastify
 * server with the routes the bench calls, `GET /api/search`, `GET /api/users/get-books` and
 * `GET /api/users/me`, each returning a constant object, a real answer of the app read from the
 * JSON file named by `BARE_ANSWERS` (`{ "search": …, "books": …, "me": … }`). Fastify serialises it on every request, as it
 * does the app's answers. No logging, no security headers, no validation, no sign-in, no
 * database: the upper bound for one Node process on this machine.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const file = process.env.BARE_ANSWERS;
if (!file) throw new Error('BARE_ANSWERS must name the file of answers to serve.');
const answers = JSON.parse(readFileSync(file, 'utf8')) as {
  search: unknown;
  books: unknown;
  me: unknown;
};

const app = Fastify();
app.get('/api/search', async () => answers.search);
app.get('/api/users/get-books', async () => answers.books);
app.get('/api/users/me', async () => answers.me);

const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`listening on ${new URL(address).port}`);

process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
