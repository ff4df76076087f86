import { useCallback, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import {
  CHATBOT_PROMPT_MAX,
  CHATBOT_TEXT,
  chatbotLinkSchema,
  chatbotTurnSchema,
} from '#contract/http/chatbot.ts';
import {
  askChatbot,
  chatbotHistory,
  newChatbotSessionId,
  type ChatbotLine,
} from '../../api/chatbot.ts';

/** Where the conversation is kept, so a reload in the same tab keeps it (and a new tab starts afresh). */
export const CHATBOT_STORAGE_KEY = 'digi-chatbot';

/** What the status region says while a reply is on its way. */
export const CHATBOT_TYPING = 'Digi Chatbot is typing…';

/** One conversation: the session the server knows it by, and its lines, oldest first. */
export interface ChatbotConversation {
  sessionId: string;
  lines: ChatbotLine[];
}

// Storage is written by this code but may be stale or edited: read it as untrusted input.
const storedSchema = z.object({
  sessionId: z.string().trim().min(1).max(100),
  lines: z.array(
    chatbotTurnSchema.extend({
      links: z.array(chatbotLinkSchema).optional(),
      error: z.boolean().optional(),
    }),
  ),
});

function freshConversation(): ChatbotConversation {
  return { sessionId: newChatbotSessionId(), lines: [] };
}

/** The conversation kept in this tab, or a new one. */
export function loadConversation(): ChatbotConversation {
  try {
    const parsed = storedSchema.safeParse(
      JSON.parse(sessionStorage.getItem(CHATBOT_STORAGE_KEY) ?? 'null'),
    );
    return parsed.success ? parsed.data : freshConversation();
  } catch {
    // Storage blocked (privacy settings) or unreadable: the conversation lives in memory only.
    return freshConversation();
  }
}

function saveConversation(conversation: ChatbotConversation) {
  try {
    if (conversation.lines.length === 0) sessionStorage.removeItem(CHATBOT_STORAGE_KEY);
    else sessionStorage.setItem(CHATBOT_STORAGE_KEY, JSON.stringify(conversation));
  } catch {
    // Full or blocked storage only costs the reload; the conversation itself goes on.
  }
}

/** What a screen reader hears for a bot line: failures say they are errors. */
export function spokenText(line: ChatbotLine): string {
  if (line.error) return /^error\b/i.test(line.text) ? line.text : `Error: ${line.text}`;
  return line.text || CHATBOT_TEXT.noResponse;
}

/**
 * The Digi Chatbot conversation: its lines, whether a reply is on its way, and the sentence for
 * the status region (the typing notice, then the reply, so a screen reader hears only what is
 * new). One question at a time, as the spec's typing indicator implies. `clear` starts a new
 * session and drops a reply still on its way.
 */
export function useChatbotConversation() {
  const [conversation, setConversation] = useState(loadConversation);
  const [pending, setPending] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // A ref, not the state, guards against a second send: two Enters can land before a re-render.
  const request = useRef<AbortController | null>(null);

  useEffect(() => saveConversation(conversation), [conversation]);

  useEffect(
    () => () => {
      request.current?.abort();
    },
    [],
  );

  const ask = useCallback(
    async (
      prompt: string,
      sessionId: string,
      history: ChatbotLine[],
      controller: AbortController,
    ) => {
      const answer = await askChatbot(
        { prompt, sessionId, history: chatbotHistory(history) },
        controller.signal,
      );
      // Cleared (or the widget went away) while waiting: the reply belongs to a dropped session.
      if (controller.signal.aborted) return;
      request.current = null;
      const line: ChatbotLine = answer.ok
        ? { sender: 'bot', text: answer.text, links: answer.links }
        : { sender: 'bot', text: answer.text, error: true };
      setConversation((current) =>
        current.sessionId === sessionId ? { ...current, lines: [...current.lines, line] } : current,
      );
      setPending(false);
      setAnnouncement(spokenText(line));
    },
    [],
  );

  /**
   * Sends `draft` unless it is blank, too long or a reply is still on its way. Answers at once
   * whether it was taken, so the message box can empty before the reply arrives.
   */
  const send = useCallback(
    (draft: string): boolean => {
      const prompt = draft.trim();
      if (!prompt || prompt.length > CHATBOT_PROMPT_MAX || request.current) return false;
      const { sessionId, lines } = conversation;
      const controller = new AbortController();
      request.current = controller;
      setConversation({ sessionId, lines: [...lines, { sender: 'user', text: prompt }] });
      setPending(true);
      setAnnouncement(CHATBOT_TYPING);
      void ask(prompt, sessionId, lines, controller);
      return true;
    },
    [ask, conversation],
  );

  const clear = useCallback(() => {
    request.current?.abort();
    request.current = null;
    setConversation(freshConversation());
    setPending(false);
    setAnnouncement('Conversation cleared.');
  }, []);

  return {
    sessionId: conversation.sessionId,
    lines: conversation.lines,
    pending,
    announcement,
    send,
    clear,
  };
}
