import type { FastifyInstance } from 'fastify';
import { chatUsernameSchema } from '../../../contract/socket/chat.ts';
import { requireUser } from '../../auth/session.ts';
import { parseInput } from '../../http/errors.ts';
import type { RouteContext } from '../context.ts';

/**
 * The forum's HTTP side: the username a person chats under (kept on the profile, so it follows
 * them across devices) and the library's extra moderation words, which the browser checks before
 * a message leaves it (the server checks again).
 */
export async function chatRoutes(app: FastifyInstance, context: RouteContext): Promise<void> {
  app.put('/users/chat-username', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    const { username } = parseInput(chatUsernameSchema, request.body);
    await context.database.db
      .updateTable('users')
      .set({ chat_username: username, updated_at: new Date() })
      .where('id', '=', user.id)
      .execute();
    return { username };
  });

  app.get('/chat/moderation-words', async (request, reply) => {
    await requireUser(request, reply, context);
    reply.header('cache-control', 'private, max-age=300');
    return { words: context.moderationWords };
  });
}
