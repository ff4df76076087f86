import { z } from 'zod';

/** Longest prompt the Digi Chatbot takes (a longer one is refused with 413). */
export const CHATBOT_PROMPT_MAX = 2000;

/** Earlier messages (each a user's or the bot's) the server reads; older ones are dropped. */
export const CHATBOT_HISTORY_TURNS = 20;

/** The widget's fixed strings (product spec sections 2 and 8). */
export const CHATBOT_TEXT = {
  title: 'Digi Chatbot',
  welcome: 'Welcome to Digi Chatbot! Ask me anything to get started.',
  noResponse: 'No response.',
  unreachable: 'Error: Could not reach the server.',
} as const;

/** One earlier turn of the conversation, as the widget keeps it. */
export const chatbotTurnSchema = z.object({
  sender: z.enum(['user', 'bot']),
  text: z.string().max(20_000),
});
export type ChatbotTurn = z.infer<typeof chatbotTurnSchema>;

/**
 * `POST /api/chat`, the spec's payload. The prompt's length is checked by the route (413 beyond
 * `CHATBOT_PROMPT_MAX`), not here, so an overlong prompt gets its own status.
 */
export const chatbotRequestSchema = z.object({
  prompt: z
    .string({ message: 'Type a question first' })
    .refine((text) => text.trim().length > 0, 'Type a question first'),
  sessionId: z.string().trim().min(1).max(100).optional(),
  history: z.array(chatbotTurnSchema).max(500).optional().default([]),
});
export type ChatbotRequest = z.input<typeof chatbotRequestSchema>;

/**
 * A link the server made for a reply: always a path inside the app (a catalogue item, the
 * reservation screen, the request form), never a URL taken from the answer text.
 */
export const chatbotLinkSchema = z.object({
  label: z.string(),
  // A path on this site: '//host' and '/\\host' would leave it, so neither may start one; and
  // no '.' or '..' segment, so the path shown is the path followed.
  href: z
    .string()
    .regex(/^(?!\/[/\\])(?![^?#]*\/\.\.?(?:[/?#]|$))\/[^\s\\]*$/, 'links stay inside the app'),
});
export type ChatbotLink = z.infer<typeof chatbotLinkSchema>;

/** The reply: plain text (never HTML) and the links to show under it. */
export const chatbotResponseSchema = z.object({
  response: z.string(),
  links: z.array(chatbotLinkSchema).optional().default([]),
});
export type ChatbotResponse = z.infer<typeof chatbotResponseSchema>;
