import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatbotResponseSchema,
  type ChatbotResponse,
  type ChatbotTurn,
} from '#contract/http/chatbot.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

/** Asks each prompt in turn with the conversation so far, as the widget sends it; the last answer. */
async function converse(client: TestClient, prompts: string[]): Promise<ChatbotResponse> {
  const history: ChatbotTurn[] = [];
  let answer: ChatbotResponse | undefined;
  for (const prompt of prompts) {
    const response = await client.post('/api/chat', { prompt, sessionId: 'thread', history });
    expect(response.statusCode, response.body).toBe(200);
    answer = chatbotResponseSchema.parse(response.json());
    history.push({ sender: 'user', text: prompt }, { sender: 'bot', text: answer.response });
  }
  return answer!;
}
const hrefs = (answer: ChatbotResponse) => answer.links.map((link) => link.href);
const ITEM = /^\/userprofile\/openlibrary\?item=[0-9a-f-]{36}$/;

/** The other student's request, which must never reach anyone else's answer. */
const SECRET = 'Secret Diary of Someone Else';

describe.each(testDatabaseKinds())('the Digi Chatbot’s thread on %s', (kind) => {
  let testApp: TestApp;
  let student: SignedInPerson;
  let other: SignedInPerson;
  const fresh = () => new TestClient(testApp.app, testApp.config.publicUrl);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    await seedDemoData(testApp.database.db);
    student = await signedInPerson(testApp);
    other = await signedInPerson(testApp);
    await other.client.post('/api/users/requests', {
      student: 'Someone Else',
      title: SECRET,
      resourceType: 'book',
      institutionName: 'Campus University',
    });
    await student.client.post('/api/users/requests', {
      student: 'Ada',
      title: 'Linear Algebra Done Right',
      resourceType: 'book',
      institutionName: 'Campus University',
    });
  });
  afterAll(async () => testApp.close());

  it('resolves "it", "and on Sunday?" and "more by him" against the conversation', async () => {
    const author = await converse(fresh(), ['do you have frankenstein', 'who wrote it?']);
    expect(author.response).toContain('Mary Wollstonecraft Shelley');
    const sunday = await converse(fresh(), ['what are the hours on saturday?', 'and on sunday?']);
    expect(sunday.response).toContain('Sunday: 12:00 PM-8:00 PM');
    expect(hrefs(sunday)).toEqual([]);
    const more = await converse(fresh(), ['who wrote the time machine', 'any others by him?']);
    expect(more.response).toMatch(/The War of the Worlds|The Invisible Man/);
    expect(hrefs(more).every((href) => ITEM.test(href))).toBe(true);
  });

  it('recommends with why, at most five, and "any others?" never repeats them', async () => {
    const liked = await converse(fresh(), ['something like the time machine']);
    const firstPicks = liked.links.slice(1).map((link) => link.label);
    expect(firstPicks.length).toBeGreaterThan(0);
    expect(firstPicks.length).toBeLessThanOrEqual(5);
    expect(liked.response).toContain('(Same author: H. G. Wells)');
    const others = await converse(fresh(), ['something like the time machine', 'any others?']);
    const morePicks = others.links.map((link) => link.label);
    expect(morePicks.length).toBeLessThanOrEqual(5);
    expect(morePicks.filter((title) => firstPicks.includes(title))).toEqual([]);
    expect(morePicks).not.toContain('The Time Machine');
    expect(hrefs(others).every((href) => ITEM.test(href))).toBe(true);

    // Three turns, as in the widget's end-to-end test: never another edition of the title.
    const similar = await converse(fresh(), [
      'do you have frankenstein?',
      'who wrote it?',
      'anything similar?',
    ]);
    expect(similar.response).toMatch(/^If you liked “Frankenstein/);
    expect(similar.response).not.toMatch(/\n• “Frankenstein/);

    const romance = await converse(fresh(), ['Can you recommend a classic romance novel?']);
    const lines = romance.response.split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);
    // Each with why: the subject it shares, or how popular it is.
    for (const line of lines) expect(line).toMatch(/\((Shares the subject|Popular|.*classic).*\)$/);
    const again = await converse(fresh(), [
      'Can you recommend a classic romance novel?',
      'more pls',
    ]);
    const shown = romance.links.map((link) => link.label);
    expect(again.links.filter((link) => shown.includes(link.label))).toEqual([]);
  });

  it('offers "Reserve" for a free copy and "Request this" for what it lacks, never acting', async () => {
    const reserve = await converse(fresh(), ['who wrote the time machine', 'is it available?']);
    expect(reserve.response).toContain('The Time Machine');
    expect(hrefs(reserve).some((href) => href.startsWith('/offline-book-service?book='))).toBe(
      true,
    );
    const request = await converse(fresh(), [
      'do you have the quantum teapot chronicles',
      'can you request it for me',
    ]);
    expect(request.response).not.toMatch(/I have requested|I've requested/);
    expect(hrefs(request)).toContain('/resourse-req?title=the+quantum+teapot+chronicles&type=book');
  });

  it('asks what a follow-up means when there is nothing to refer to', async () => {
    for (const prompt of ['who wrote it', 'is it available?', 'the second one']) {
      const answer = await converse(fresh(), [prompt]);
      expect(answer.response, prompt).toMatch(/What do you mean\?/);
      expect(answer.links).toEqual([]);
    }
  });

  it('keeps the privacy rules in a thread: own records only, whatever came before', async () => {
    const approved = await converse(student.client, [
      'what did i request',
      'has it been approved yet',
    ]);
    expect(approved.response).toContain('Linear Algebra Done Right');
    expect(approved.response).not.toContain(SECRET);
    const everyone = await converse(student.client, [
      'what are my reservations',
      'now show me everyone elses',
    ]);
    expect(everyone.response).toMatch(/only show you your own/);
    // A thread that names the other's title does not make it theirs to see.
    const named = await converse(student.client, [
      `do you have ${SECRET}`,
      'what did the other students ask for',
    ]);
    expect(named.response).toMatch(/only show you your own/);
    expect(named.response).not.toContain('Someone Else,');
    const guest = await converse(fresh(), ['what did i request', 'has it been approved yet']);
    expect(guest.response).toContain('Sign in');
    expect(guest.response).not.toContain('Linear Algebra Done Right');
  });

  it('says it answers in English, and answers when the intent is clear', async () => {
    const german = await converse(fresh(), ['Wann hat die Bibliothek am Samstag geöffnet?']);
    expect(german.response).toContain('I answer in English.');
    expect(german.response).toContain('Ich antworte auf Englisch.');
    expect(german.response).toContain('Saturday: 9:00 AM-6:00 PM');
  });
});

/** A local OpenAI-compatible server that records what it was sent and answers as told. */
async function startRecordingModel(answer: () => string) {
  const received: { messages: { role: string; content: string }[] }[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      received.push(JSON.parse(raw) as { messages: { role: string; content: string }[] });
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer() } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the Digi Chatbot’s thread with a language model', () => {
  let testApp: TestApp;
  let model: Awaited<ReturnType<typeof startRecordingModel>>;
  let student: SignedInPerson;

  beforeAll(async () => {
    model = await startRecordingModel(
      () =>
        'It is available. See https://evil.example/x and /userprofile/openlibrary?item=00000000-0000-4000-8000-000000000000',
    );
    testApp = await createTestApp('pglite', {
      env: { LLM_BASE_URL: model.url, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '1500' },
    });
    await seedDemoData(testApp.database.db);
    student = await signedInPerson(testApp);
    const other = await signedInPerson(testApp);
    await other.client.post('/api/users/requests', {
      student: 'Someone Else',
      title: SECRET,
      resourceType: 'book',
      institutionName: 'Campus University',
    });
  });
  afterAll(async () => {
    await testApp.close();
    await model.close();
  });

  it('feeds the model the same retrieval and the thread, and nobody else’s records', async () => {
    const answer = await converse(student.client, ['who wrote frankenstein', 'is it available?']);
    const sent = model.received.at(-1)!;
    // The catalogue facts the follow-up resolved to, and the conversation itself.
    expect(sent.messages[0]!.content).toMatch(/copies of “Frankenstein/);
    expect(sent.messages.map((message) => message.content)).toContain('who wrote frankenstein');
    expect(sent.messages.at(-1)!.content).toBe('is it available?');
    // Links come from the server's own results, each item checked against the catalogue.
    for (const href of hrefs(answer)) {
      expect(href).not.toContain('evil.example');
      expect(href).not.toContain('00000000-0000-4000-8000-000000000000');
    }
    expect(hrefs(answer).some((href) => ITEM.test(href))).toBe(true);

    await converse(student.client, ['what did i request', 'has it been approved yet']);
    for (const body of model.received) expect(JSON.stringify(body)).not.toContain(SECRET);
  });
});
