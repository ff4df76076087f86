import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHATBOT_HISTORY_TURNS, CHATBOT_TEXT } from '#contract/http/chatbot.ts';
import {
  appPath,
  askChatbot,
  CHATBOT_TIMEOUT_MS,
  chatbotHistory,
  newChatbotSessionId,
  type ChatbotLine,
} from './chatbot.ts';

afterEach(() => vi.useRealTimers());

describe('chatbot call helpers', () => {
  it('keeps links inside the app and drops every way out of it', () => {
    expect(appPath('/offline-book-service')).toBe('/offline-book-service');
    expect(appPath('/reader?link=a#top')).toBe('/reader?link=a#top');
    for (const href of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'reader',
    ]) {
      expect(appPath(href), href).toBeNull();
    }
  });

  it('sends the answers and questions, not the failure notices, and no more than the server reads', () => {
    const lines: ChatbotLine[] = [
      { sender: 'user', text: 'Hi' },
      { sender: 'bot', text: CHATBOT_TEXT.unreachable, error: true },
      { sender: 'bot', text: '' },
      { sender: 'user', text: 'Hi again' },
      { sender: 'bot', text: 'Hello', links: [{ label: 'Home', href: '/' }] },
    ];
    expect(chatbotHistory(lines)).toEqual([
      { sender: 'user', text: 'Hi' },
      { sender: 'user', text: 'Hi again' },
      { sender: 'bot', text: 'Hello' },
    ]);
    const many = Array.from({ length: 100 }, (_, i): ChatbotLine => ({
      sender: 'user',
      text: `${i}`,
    }));
    expect(chatbotHistory(many)).toHaveLength(CHATBOT_HISTORY_TURNS * 2);
  });

  it('makes session ids from the current time that differ between tabs', () => {
    const a = newChatbotSessionId(1_700_000_000_000);
    const b = newChatbotSessionId(1_700_000_000_000);
    expect(a).toMatch(/^1700000000000-[0-9a-z]+$/);
    expect(a).not.toBe(b);
  });

  it('gives up on a reply that never comes', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      (_input: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('', 'AbortError'))),
        ),
    );
    const answer = askChatbot({ prompt: 'Hello?', sessionId: 's', history: [] });
    await vi.advanceTimersByTimeAsync(CHATBOT_TIMEOUT_MS);
    await expect(answer).resolves.toEqual({ ok: false, text: CHATBOT_TEXT.unreachable });
  });
});
