import { fireEvent, render, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { CHATBOT_TEXT, chatbotLinkSchema } from '#contract/http/chatbot.ts';
import { appPath, type ChatbotLine } from '../../api/chatbot.ts';
import { mockApi } from '../../test/api-mock.tsx';
import {
  assertRenders,
  expectInert,
  expectShown,
  hostileText,
  hostileWords,
} from '../../test/hostile-text.ts';
import { ChatbotWindow } from './chatbot-window.tsx';
import { CHATBOT_STORAGE_KEY } from './use-chatbot-conversation.ts';

/*
 * The Digi Chatbot shows the person's prompts and the server's replies as text, and turns the
 * server's links into router links. Property: any text shows as given and never as markup, and
 * every link, whatever its href, stays inside the app (a relative path on this origin).
 */

/** Hrefs that look like app paths but may leave the app once resolved, and plain hostile text. */
const href: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '/',
    '/userprofile/openlibrary?item=1#top',
    '/..//evil.example',
    '/%2e%2e//evil.example/x',
    '/./..//evil.example',
    '/a/../..//evil.example',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/%5Cevil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
  ),
  fc
    .array(
      fc.constantFrom(
        '..',
        '.',
        '',
        'a',
        '%2e',
        '%2e%2e',
        '.%2e',
        '%2F',
        '\\',
        '\t',
        'evil.example',
        '?q=1',
        '#x',
        '@',
      ),
      { maxLength: 6 },
    )
    .map((parts) => `/${parts.join('/')}`),
  hostileText,
);

/** True for an href that a click follows inside the app: a path on this origin. */
function staysInApp(value: string | null): boolean {
  if (value === null || !value.startsWith('/') || /^[/\\]{2}/.test(value)) return false;
  const origin = window.location.origin;
  return new URL(value, origin).origin === origin;
}

function renderWindow() {
  const router = createMemoryRouter(
    [{ path: '*', element: <ChatbotWindow open onClose={() => {}} /> }],
    { initialEntries: ['/'] },
  );
  return render(<RouterProvider router={router} />);
}

/** A conversation as the widget keeps it in sessionStorage, with hostile lines and links. */
const storedLine: fc.Arbitrary<ChatbotLine> = fc.record(
  {
    sender: fc.constantFrom('user' as const, 'bot' as const),
    text: hostileText,
    // Only links the stored schema takes, or the whole conversation would be dropped.
    links: fc.array(
      fc.record({
        label: hostileWords,
        href: href.filter(
          (value) => chatbotLinkSchema.safeParse({ label: 'x', href: value }).success,
        ),
      }),
      { maxLength: 3 },
    ),
    error: fc.boolean(),
  },
  { requiredKeys: ['sender', 'text'] },
);

beforeEach(() => sessionStorage.clear());

describe('Digi Chatbot (fast-check)', () => {
  it('appPath answers only paths inside the app, and answers them unchanged the second time', () => {
    fc.assert(
      fc.property(href, (value) => {
        const path = appPath(value);
        if (path === null) return;
        expect(staysInApp(path), `${JSON.stringify(value)} → ${path}`).toBe(true);
        expect(appPath(path)).toBe(path);
      }),
      { numRuns: 400 },
    );
  });

  it('appPath refuses paths whose dot segments resolve to another host (regression)', () => {
    // Found by the property above: '/..//host' resolved to the path '//host', which a router
    // link reads as another site's address.
    for (const value of ['/..//evil.example', '/%2e%2e//evil.example/x', '/./..//evil.example'])
      expect(appPath(value)).toBeNull();
    expect(appPath('/userprofile/openlibrary?item=1#top')).toBe(
      '/userprofile/openlibrary?item=1#top',
    );
  });

  it('shows a stored conversation as text, with only in-app links', async () => {
    await assertRenders(fc.array(storedLine, { minLength: 1, maxLength: 4 }), (lines) => {
      sessionStorage.setItem(
        CHATBOT_STORAGE_KEY,
        JSON.stringify({ sessionId: 'property-session', lines }),
      );
      renderWindow();
      const conversation = document.querySelector('[aria-label="Conversation"]')!;
      expect(conversation.textContent).not.toContain(CHATBOT_TEXT.welcome);
      expectShown(
        lines.map((line) => line.text),
        conversation,
      );
      const kept = lines.flatMap((line) =>
        (line.links ?? []).filter((link) => appPath(link.href) !== null),
      );
      expectShown(
        kept.map((link) => link.label),
        conversation,
      );
      const anchors = conversation.querySelectorAll('a');
      expect(anchors).toHaveLength(kept.length);
      for (const anchor of anchors)
        expect(staysInApp(anchor.getAttribute('href')), anchor.outerHTML).toBe(true);
      expectInert();
    });
  });

  it('starts afresh, without throwing, from storage that is not a conversation', async () => {
    await assertRenders(
      fc.oneof(
        hostileText,
        fc.jsonValue().map((value) => JSON.stringify(value)),
        fc
          .record({ sessionId: hostileText, lines: fc.array(fc.jsonValue(), { maxLength: 3 }) })
          .map((value) => JSON.stringify(value)),
      ),
      (stored) => {
        sessionStorage.setItem(CHATBOT_STORAGE_KEY, stored);
        renderWindow();
        expectInert();
        sessionStorage.clear();
      },
    );
  });

  it('shows a hostile prompt and reply as text, keeping only the reply’s in-app links', async () => {
    await assertRenders(
      fc.record({
        prompt: hostileWords.filter((text) => text.length <= 2000),
        response: hostileWords,
        links: fc.array(fc.record({ label: hostileWords, href }), { maxLength: 3 }),
      }),
      async ({ prompt, response, links }) => {
        sessionStorage.clear();
        mockApi({ 'POST /chat': () => ({ body: { response, links } }) });
        renderWindow();
        const input = document.querySelector('textarea')!;
        fireEvent.change(input, { target: { value: prompt } });
        fireEvent.keyDown(input, { key: 'Enter' });
        const conversation = document.querySelector('[aria-label="Conversation"]')!;
        await waitFor(() =>
          expect(conversation.querySelectorAll('li[data-sender]')).toHaveLength(2),
        );
        expectShown([prompt.trim(), response.trim()], conversation);
        for (const anchor of conversation.querySelectorAll('a'))
          expect(staysInApp(anchor.getAttribute('href')), anchor.outerHTML).toBe(true);
        expectInert();
      },
      8,
    );
  });
});
