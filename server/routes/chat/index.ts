import {
  chatUsernameResponseSchema,
  chatUsernameSchema,
  moderationWordsResponseSchema,
} from '#contract/socket/chat.ts';
import { NAME_TEXT } from '#contract/names.ts';
import { impersonatesStaff } from '../../chat/names.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import { setChatUsername } from '../../users/store.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

/**
 * The forum's HTTP side: the username a person chats under (kept on the profile, so it follows
 * them across devices) and the library's extra moderation words, which the browser checks before
 * a message leaves it (the server checks again).
 */
export async function chatRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  app.put(
    '/users/chat-username',
    declareRoute({
      tag: 'chat',
      summary: "Set the forum's username",
      access: 'signed-in',
      body: chatUsernameSchema,
      response: chatUsernameResponseSchema,
      errors: {
        403: 'The name holds a word kept for library staff, and the caller is not a librarian.',
        409: 'Another person has that username, or one that looks the same.',
      },
    }),
    async (request) => {
      const user = signedInCaller(request);
      // Normalised by the schema: the answer says the name as it is stored and shown.
      const { username } = parseInput(chatUsernameSchema, request.body);
      if (user.role !== 'librarian' && impersonatesStaff(username, [context.config.library.name])) {
        throw new Refusal(403, NAME_TEXT.keptForStaff);
      }
      if (!(await setChatUsername(context.database.db, user.id, username))) {
        throw new Refusal(409, NAME_TEXT.usernameTaken);
      }
      return { username };
    },
  );

  app.get(
    '/chat/moderation-words',
    declareRoute({
      tag: 'chat',
      summary: "The library's extra abuse words",
      access: 'signed-in',
      response: moderationWordsResponseSchema,
    }),
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=300');
      return { words: [...context.moderationWords] };
    },
  );
}
