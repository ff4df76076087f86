import {
  chatUsernameResponseSchema,
  chatUsernameSchema,
  moderationWordsResponseSchema,
} from '#contract/socket/chat.ts';
import { parseInput } from '../../http/errors.ts';
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
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { username } = parseInput(chatUsernameSchema, request.body);
      await setChatUsername(context.database.db, user.id, username);
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
