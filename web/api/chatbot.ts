import { z } from 'zod';
import {
  CHATBOT_HISTORY_TURNS,
  CHATBOT_TEXT,
  chatbotLinkSchema,
  chatbotTurnSchema,
  type ChatbotLink,
  type ChatbotTurn,
} from '#contract/http/chatbot.ts';
import { ApiError, apiRequest } from './client.ts';

/**
 * How long the widget waits for a reply. The server answers, or gives up with a 503, within 28
 * seconds, so a call still open after this one is lost rather than slow.
 */
export const CHATBOT_TIMEOUT_MS = 35_000;

/** Items of earlier conversation sent with a prompt: the server reads no more than this. */
export const CHATBOT_HISTORY_ITEMS = CHATBOT_HISTORY_TURNS * 2;

// Longer turns make the server refuse the whole call, which would break the session for good.
const TURN_TEXT_MAX = chatbotTurnSchema.shape.text.maxLength ?? 20_000;

// The contract's schema would reject the whole reply for one bad link; here a bad link is only
// dropped, so the answer itself still shows.
const replySchema = z.object({
  response: z.string(),
  links: z.array(z.unknown()).optional().default([]),
});

/** What one call to the chatbot comes to: its reply, or the sentence to show instead. */
export type ChatbotAnswer =
  { ok: true; text: string; links: ChatbotLink[] } | { ok: false; text: string };

/** One line of the conversation as the widget keeps it. */
export interface ChatbotLine extends ChatbotTurn {
  /** App links offered under a bot reply. */
  links?: ChatbotLink[];
  /** A bot line that reports a failed call rather than an answer. */
  error?: boolean;
}

/** A new session id: the current time (as the spec says) plus random digits, so two tabs differ. */
export function newChatbotSessionId(now = Date.now()): string {
  // getRandomValues, not randomUUID: the latter is missing outside secure contexts (http on a LAN).
  const random = crypto.getRandomValues(new Uint32Array(2));
  return `${now}-${Array.from(random, (n) => n.toString(36)).join('')}`;
}

/**
 * The path to open for a link the server sent, or null when it would leave the app. Resolving it
 * as the browser would catches `//host`, `/\host` and tab or newline tricks that a prefix check
 * misses.
 */
export function appPath(href: string): string | null {
  if (!href.startsWith('/')) return null;
  try {
    const base = window.location.origin;
    const url = new URL(href, base);
    // Dot segments can resolve to a path that starts with '//' ('/..//host', '/%2e%2e//host'),
    // which a link reads as another host's address.
    return url.origin === base && !url.pathname.startsWith('//')
      ? `${url.pathname}${url.search}${url.hash}`
      : null;
  } catch {
    return null;
  }
}

/**
 * The earlier turns to send with the next prompt: the answers and questions (not the failure
 * notices, which would only confuse the model), newest last, no more than the server reads.
 */
export function chatbotHistory(lines: readonly ChatbotLine[]): ChatbotTurn[] {
  return lines
    .filter((line) => !line.error && line.text.trim() !== '')
    .slice(-CHATBOT_HISTORY_ITEMS)
    .map(({ sender, text }) => ({ sender, text: text.slice(0, TURN_TEXT_MAX) }));
}

/**
 * `POST /api/chat`. Never throws: a refusal with the server's own sentence (400, 413, 429) comes
 * back as that sentence; a network failure, a server error or a timeout as
 * `CHATBOT_TEXT.unreachable`. Aborting `signal` (the conversation was cleared) ends the call.
 */
export async function askChatbot(
  request: { prompt: string; sessionId: string; history: ChatbotTurn[] },
  signal?: AbortSignal,
): Promise<ChatbotAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CHATBOT_TIMEOUT_MS);
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop);
  try {
    const reply = await apiRequest('/chat', replySchema, {
      method: 'POST',
      body: JSON.stringify(request),
      signal: controller.signal,
    });
    const links = reply.links.flatMap((link) => {
      const parsed = chatbotLinkSchema.safeParse(link);
      const path = parsed.success ? appPath(parsed.data.href) : null;
      return parsed.success && path && parsed.data.label.trim()
        ? [{ label: parsed.data.label, href: path }]
        : [];
    });
    return { ok: true, text: reply.response.trim(), links };
  } catch (error) {
    const refused =
      error instanceof ApiError && error.fromServer && error.status >= 400 && error.status < 500;
    return { ok: false, text: refused ? error.message : CHATBOT_TEXT.unreachable };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}
