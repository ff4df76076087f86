import {
  CHATBOT_HISTORY_TURNS,
  CHATBOT_PROMPT_MAX,
  chatbotRequestSchema,
  chatbotResponseSchema,
} from '#contract/http/chatbot.ts';
import { currentUser } from '../../auth/session.ts';
import { queryMeaning } from '../../catalogue/meaning.ts';
import { relatedItems } from '../../catalogue/related.ts';
import { builtInReply, checkedLinks, type AssistantContext } from '../../chatbot/assistant.ts';
import { ANSWERS_IN_ENGLISH, ENGLISH_NOTE } from '../../chatbot/pipeline/language.ts';
import { understand } from '../../chatbot/pipeline/index.ts';
import { createModel } from '../../chatbot/model.ts';
import { questionKey } from '../../insights/questions.ts';
import { normaliseTerm } from '../../insights/recorder.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import { enforceRateLimits } from '../../http/rate-limit.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, type DeclaringInstance } from '../declare-route.ts';
import { recordInsight } from '../insights/record.ts';

/** Questions per minute: a person asking is far below it; a script is not. */
const USER_RATE = { limit: 30, windowSeconds: 60 };
const GUEST_RATE = { limit: 20, windowSeconds: 60 };

/** However slow a model is, an answer (or an error) comes within this. */
const ANSWER_DEADLINE_MS = 28_000;

/**
 * `POST /api/chat`, the Digi Chatbot: open to guests (it floats on every screen), answered from
 * the library's own data by the built-in assistant, and written by a language model when one is
 * configured, grounded in what the assistant found. A model that fails or stalls is skipped.
 */
export async function chatbotRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const model = createModel(context.config, app.log);
  // The app's one embedder, as the catalogue's search and related items use it: a topic question
  // is ranked by meaning where the database can search by meaning, by words otherwise.
  const meaning = queryMeaning(context.embedder, app.log);
  const assistant: AssistantContext = {
    db: context.database.db,
    config: context.config,
    now: context.now,
    meaning: () => (context.database.searchByMeaning.available ? meaning : undefined),
    related: (item) => relatedItems(context.database, item, context.embedder.model),
  };

  app.post(
    '/chat',
    declareRoute({
      tag: 'chatbot',
      summary: 'Ask the Digi Chatbot',
      description: "Answers from the asker's own records only.",
      access: 'guest',
      body: chatbotRequestSchema,
      response: chatbotResponseSchema,
      rateLimited: true,
      errors: {
        413: 'The prompt is longer than the chatbot reads.',
        503: 'The assistant took too long to answer.',
      },
    }),
    async (request, reply) => {
      const body = request.body as { prompt?: unknown } | undefined;
      if (typeof body?.prompt === 'string' && body.prompt.length > CHATBOT_PROMPT_MAX) {
        throw new Refusal(
          413,
          `Your question is too long: ${CHATBOT_PROMPT_MAX.toLocaleString('en-US')} characters at most.`,
        );
      }
      const user = await currentUser(request, reply, context);
      await enforceRateLimits(context.database.db, [
        user
          ? { key: `chatbot:user:${user.id}`, ...USER_RATE }
          : { key: `chatbot:ip:${request.ip}`, ...GUEST_RATE },
      ]);
      const input = parseInput(chatbotRequestSchema, request.body);
      const history = input.history.slice(-CHATBOT_HISTORY_TURNS);

      const answer = async () => {
        // The thread is read for what follow-ups refer to ("who wrote it?"), never for records.
        const { intent, language } = understand(input.prompt, history);
        const reply = await builtInReply(assistant, user?.profile_completed ? user : null, intent);
        // What it could not answer is counted for the librarians (in memory, written every few
        // seconds: the reply waits for nothing), grouped by its words (decision 041).
        if (reply.unanswered) {
          recordInsight(context.insights, request, {
            kind: 'chatbot_unanswered',
            scope: questionKey(input.prompt),
            subject: normaliseTerm(input.prompt),
          });
        }
        // A question in another language: said in English and in it, then answered if understood.
        const built = language
          ? { ...reply, text: `${ENGLISH_NOTE} ${ANSWERS_IN_ENGLISH[language]}\n${reply.text}` }
          : reply;
        // Refusals stay ours: a model is never asked to handle an attempt to override its rules.
        const guarded = intent.kind === 'injection' || intent.kind === 'others-data';
        const written =
          model && !guarded
            ? await model.write({
                prompt: input.prompt,
                history,
                facts: built.facts,
                fallback: built.text,
              })
            : null;
        // Links only from the server's own results, each item checked against the catalogue.
        return {
          response: written ?? built.text,
          links: await checkedLinks(context.database.db, built.links),
        };
      };
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Refusal(503, 'The assistant took too long to answer. Please try again.')),
          ANSWER_DEADLINE_MS,
        );
      });
      try {
        return await Promise.race([answer(), deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
