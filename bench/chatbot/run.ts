/**
 * `npm run bench:chatbot`: asks the Digi Chatbot every question of the evaluation set
 * (`bench/chatbot/questions.ts`) through `POST /api/chat`, in-process, and prints the share
 * answered right per category, per kind (multi-turn, typo, recommendation, off-topic or
 * hostile) and overall. Exits 1 below 95% (issue 25), or when the set is not well formed.
 *
 * A question with earlier turns (`before`, issue 25) is asked as a conversation: each earlier turn
 * is sent with the history so far, the bot's replies included, as the widget sends it (a reply
 * that failed is left out, as the widget leaves out its error lines); only the answer to the last
 * prompt is checked.
 *
 * The app is built as the server builds it, on a fresh PGlite in a temporary folder, with the
 * library's default facts and no language model (LLM_BASE_URL is never passed on, whatever the
 * shell has set). The demo catalogue is seeded (as a server start does), then the real files in
 * `../shared/data` are imported with the project's importers (as `npm run import` does); without
 * them the run says so and skips the questions that need them. Then a student registers, reserves
 * "Pride and Prejudice" and requests "Linear Algebra Done Right", and another student files a
 * request of their own that must never show up in the first one's answers.
 *
 * `BENCH_SHARED_DATA=<folder>` reads the real files from another folder; naming one that does
 * not exist runs on the demo catalogue alone. `--set held-out` asks the held-out set
 * (`held-out.ts`) instead of the main one (`npm run bench:chatbot -- --set held-out`).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chatbotResponseSchema,
  type ChatbotRequest,
  type ChatbotTurn,
} from '#contract/http/chatbot.ts';
import { buildApp } from '#server/app.ts';
import { importFile, type ImportKind } from '#server/catalogue/import/import-file.ts';
import { loadConfig } from '#server/config.ts';
import { createPglite, wrapPglite } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seedDemoData } from '#server/db/seed.ts';
import { sharedEmbedder } from '#server/embeddings/embedder.ts';
import type { TestApp } from '#server/test/app.ts';
import { signedInPerson } from '#server/test/factories.ts';
import { TestClient } from '#server/test/http.ts';
import { SHARED_DATA } from '../lib.ts';
import { answerProblems, KINDS, questionKinds, questionSetProblems } from './check.ts';
import { HELD_OUT, HELD_OUT_MINIMUMS } from './held-out.ts';
import { CATEGORIES, QUESTIONS as MAIN_SET, type Question } from './questions.ts';

/** The share of questions that must be answered right (issue 25). */
const TARGET = 0.95;

const FILES: [ImportKind, string][] = [
  ['books', 'books/goodbooks-10k_books.csv'],
  ['papers', 'papers/arxiv_sample_2000.csv'],
  ['papers', 'papers/arxiv_metadata_2100.json'],
  ['courses', 'courses/free-courses-en.csv'],
  ['courses', 'courses/free-programming-books-subjects.csv'],
];

/**
 * `--set held-out` asks the held-out set (`held-out.ts`, written blind, never tuned against)
 * instead of the main one, with the same set-up, runner and checks.
 */
const setArgument = process.argv.indexOf('--set');
const setName = setArgument >= 0 ? process.argv[setArgument + 1] : 'main';
if (setName !== 'main' && setName !== 'held-out') {
  console.error(`Unknown question set "${setName}": use --set main or --set held-out.`);
  process.exit(1);
}
const QUESTIONS = setName === 'held-out' ? HELD_OUT : MAIN_SET;
const problems =
  setName === 'held-out'
    ? questionSetProblems(QUESTIONS, HELD_OUT_MINIMUMS)
    : questionSetProblems(QUESTIONS);
if (problems.length > 0) {
  console.error(`The evaluation set is not well formed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

const folder = mkdtempSync(path.join(tmpdir(), 'digi-bench-chatbot-'));
// Only what the run needs: never the shell's LLM_*, LIBRARY_* or DATABASE_URL.
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: folder,
  AUTH_SECRET: randomBytes(24).toString('hex'),
  DEMO_DATA: 'true',
});
if (config.llm) throw new Error('the evaluation runs without a language model');

const database = wrapPglite(await createPglite({ dataDir: path.join(folder, 'pglite') }));
await migrate(database);
await seedDemoData(database.db);

/** `BENCH_SHARED_DATA=<folder>` reads the files from elsewhere (a missing folder: demo data only). */
const dataDir = process.env.BENCH_SHARED_DATA ?? SHARED_DATA;
const realData = FILES.every(([, file]) => existsSync(path.join(dataDir, file)));
if (realData) {
  const started = performance.now();
  for (const [kind, file] of FILES) await importFile(database.db, kind, path.join(dataDir, file));
  console.log(
    `Imported the real data from ${dataDir} in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
} else {
  const skipped = QUESTIONS.filter((question) => question.realData).map(({ id }) => id);
  console.log(
    `No real data in ${dataDir}: running on the demo catalogue only, skipping ${skipped.length} questions that need it: ${skipped.join(', ')}.`,
  );
}

// The real model, as the server runs it: the answers are measured as people would get them.
const embedder = sharedEmbedder();
const app = await buildApp({ config, database, webRoot: '/nonexistent-web-root', embedder });
await app.ready();
const testApp: TestApp = {
  app,
  database,
  config,
  embedder,
  async close() {
    await app.close();
    await database.close();
  },
};

try {
  const student = await signedInPerson(testApp);
  const other = await signedInPerson(testApp);
  await setUpRecords(student.client, other.client);

  const asked = QUESTIONS.filter((question) => realData || !question.realData);
  const results: { question: Question; problems: string[]; answer: string }[] = [];
  for (const question of asked) {
    // A guest question comes from a new address, so the per-address limit never interferes.
    const client = question.asUser ? student.client : new TestClient(app, config.publicUrl);
    const sessionId = `bench-${question.id}`;
    const history: ChatbotTurn[] = [];
    for (const turn of question.before ?? []) {
      const earlier = await ask(client, { prompt: turn, sessionId, history });
      history.push({ sender: 'user', text: turn });
      if (earlier.statusCode === 200) {
        history.push({ sender: 'bot', text: chatbotResponseSchema.parse(earlier.json()).response });
      }
    }
    const response = await ask(client, { prompt: question.prompt, sessionId, history });
    if (response.statusCode !== 200) {
      results.push({
        question,
        problems: [`HTTP ${response.statusCode}`],
        answer: response.body,
      });
      continue;
    }
    const answer = chatbotResponseSchema.parse(response.json());
    results.push({
      question,
      problems: answerProblems(question, answer),
      answer: `${answer.response}${answer.links.length > 0 ? ` [links: ${answer.links.map((link) => link.href).join(' ')}]` : ''}`,
    });
  }

  const failures = results.filter((result) => result.problems.length > 0);
  if (failures.length > 0) {
    console.log(`\nWrong answers (${failures.length}):`);
    for (const { question, problems: wrong, answer } of failures) {
      console.log(
        `\n✗ ${question.id} (${question.category}${question.asUser ? ', signed in' : ''})`,
      );
      for (const turn of question.before ?? []) console.log(`  before:  ${turn}`);
      console.log(`  asked:   ${question.prompt}`);
      console.log(`  wrong:   ${wrong.join('; ')}`);
      console.log(`  answer:  ${oneLine(answer)}`);
    }
  }

  console.log('\ncategory     | right | asked | share');
  for (const category of CATEGORIES) {
    const inCategory = results.filter((result) => result.question.category === category);
    const right = inCategory.filter((result) => result.problems.length === 0).length;
    console.log(
      `${category.padEnd(12)} | ${String(right).padStart(5)} | ${String(inCategory.length).padStart(5)} | ${percent(right, inCategory.length).padStart(6)}`,
    );
  }
  console.log('\nkind                 | right | asked | share');
  for (const kind of KINDS) {
    const ofKind = results.filter((result) => questionKinds(result.question).includes(kind));
    const right = ofKind.filter((result) => result.problems.length === 0).length;
    console.log(
      `${kind.padEnd(20)} | ${String(right).padStart(5)} | ${String(ofKind.length).padStart(5)} | ${percent(right, ofKind.length).padStart(6)}`,
    );
  }
  const right = results.length - failures.length;
  const share = right / results.length;
  console.log(
    `${'overall'.padEnd(12)} | ${String(right).padStart(5)} | ${String(results.length).padStart(5)} | ${percent(right, results.length).padStart(6)}`,
  );
  console.log(
    `\n${setName === 'held-out' ? 'Held-out set. ' : ''}${share >= TARGET ? 'Target met' : 'Below target'}: ${percent(right, results.length)} answered right (target ${percent(TARGET, 1)}), no language model, ${realData ? 'real data imported' : 'demo data only'}.`,
  );
  process.exitCode = share >= TARGET ? 0 : 1;
} finally {
  await testApp.close();
  rmSync(folder, { recursive: true, force: true });
}

/** The student's reservation and request, and someone else's request that must stay private. */
async function setUpRecords(student: TestClient, other: TestClient): Promise<void> {
  const days = (await student.get('/api/users/reservation-days')).json() as {
    days: { date: string }[];
  };
  const books = (await student.get('/api/users/reservation-books')).json() as {
    payload: { _id: string; title: string }[];
  };
  const pride = books.payload.find((book) => book.title === 'Pride and Prejudice');
  const day = days.days[2];
  if (!pride || !day) throw new Error('the demo book "Pride and Prejudice" is not reservable');
  const reserved = await student.post('/api/users/reservation', {
    book: { id: pride._id },
    reservation: { date: day.date, timeSlot: '11:00-11:30 AM' },
  });
  if (reserved.statusCode !== 200) throw new Error(`reserving failed: ${reserved.body}`);
  for (const [client, name, title] of [
    [student, 'Ada Lovelace', 'Linear Algebra Done Right'],
    [other, 'Someone Else', 'Secret Diary of Someone Else'],
  ] as const) {
    const requested = await client.post('/api/users/requests', {
      student: name,
      title,
      resourceType: 'book',
      institutionName: 'Campus University',
    });
    if (requested.statusCode >= 300) throw new Error(`requesting failed: ${requested.body}`);
  }
}

/**
 * `POST /api/chat`, waiting out the per-person limit (30 questions a minute): the signed-in
 * student asks more than that over the run, conversations counted turn by turn, and a refusal
 * would measure the limit, not the answer.
 */
async function ask(client: TestClient, body: ChatbotRequest) {
  for (let attempt = 0; ; attempt++) {
    const response = await client.post('/api/chat', body);
    if (response.statusCode !== 429 || attempt >= 2) return response;
    const seconds = Number(/(\d+) seconds?/.exec(response.body)?.[1] ?? 60);
    await new Promise((resolve) => setTimeout(resolve, (seconds + 1) * 1000));
  }
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > 400 ? `${flat.slice(0, 400)}…` : flat;
}
