import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHATBOT_HISTORY_TURNS,
  CHATBOT_PROMPT_MAX,
  CHATBOT_TEXT,
  type ChatbotRequest,
} from '#contract/http/chatbot.ts';
import { mockApi, type ApiCall, type ApiRoutes } from '../../test/api-mock.tsx';
import { AppLayout } from '../layout/app-layout.tsx';
import { CHATBOT_STORAGE_KEY, CHATBOT_TYPING } from './use-chatbot-conversation.ts';

/** The real layout around two plain screens, as every screen of the app has it. */
function renderApp(routes: ApiRoutes = {}) {
  const calls = mockApi(routes);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        element: <AppLayout />,
        children: [
          { path: '/', element: <h1>Home</h1> },
          { path: '/other', element: <h1>Other screen</h1> },
          { path: '/offline-book-service', element: <h1>Reservation</h1> },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  const view = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const chatCalls = () => calls.filter((call) => call.path === '/chat');
  return { calls, chatCalls, router, view };
}

const toggle = () => screen.getByRole('button', { name: 'Digi Chatbot' });
const dialog = () => screen.getByRole('dialog', { name: 'Digi Chatbot' });
const conversation = () => within(dialog()).getByRole('region', { name: 'Conversation' });
const input = () => screen.getByRole('textbox', { name: 'Your question' }) as HTMLTextAreaElement;
/** The status region that announces the typing notice and each reply (the first in the window). */
const status = () => within(dialog()).getAllByRole('status')[0];
const body = (call: ApiCall | undefined) => call?.body as ChatbotRequest;

async function openChatbot() {
  fireEvent.click(toggle());
  await screen.findByRole('dialog', { name: 'Digi Chatbot' });
}

function type(text: string) {
  fireEvent.change(input(), { target: { value: text } });
}

/** Types `text` and presses Enter, as a person would. */
function ask(text: string) {
  type(text);
  fireEvent.keyDown(input(), { key: 'Enter' });
}

const answer =
  (response: string, links: { label: string; href: string }[] = []) =>
  () => ({
    body: { response, links },
  });

beforeEach(() => sessionStorage.clear());

describe('Digi Chatbot widget', () => {
  it('is a closed round button until opened, then shows the welcome and takes the focus', async () => {
    renderApp();
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('dialog')).toBeNull();

    await openChatbot();
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(toggle().getAttribute('aria-controls') ?? '')).toContain(
      dialog(),
    );
    expect(within(dialog()).getByRole('heading', { name: 'Digi Chatbot' })).toBeTruthy();
    expect(within(conversation()).getByText(CHATBOT_TEXT.welcome)).toBeTruthy();
    expect(within(dialog()).getByRole('button', { name: 'Clear' })).toBeTruthy();
    expect(within(dialog()).getByRole('button', { name: 'Close' })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(input()));
    // Not modal: the page behind stays in the accessibility tree.
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('sends with Enter, not Shift+Enter, and never a blank prompt', async () => {
    const { chatCalls } = renderApp({ 'POST /chat': answer('Hello there') });
    await openChatbot();

    type('What are the opening hours?');
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(chatCalls()).toHaveLength(0);

    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(input().value).toBe('');
    await within(conversation()).findByText('Hello there');
    expect(chatCalls()).toHaveLength(1);
    const first = body(chatCalls()[0]);
    expect(first.prompt).toBe('What are the opening hours?');
    expect(first.sessionId).toMatch(/^\d+-[0-9a-z]+$/);
    expect(first.history).toEqual([]);

    ask('   \n  ');
    expect(within(dialog()).getByRole('alert').textContent).toBe('Type a question first');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Send' }));
    expect(chatCalls()).toHaveLength(1);

    ask('  And on Sunday?  ');
    await waitFor(() => expect(chatCalls()).toHaveLength(2));
    const second = body(chatCalls()[1]);
    expect(second.prompt).toBe('And on Sunday?');
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.history).toEqual([
      { sender: 'user', text: 'What are the opening hours?' },
      { sender: 'bot', text: 'Hello there' },
    ]);
  });

  it('shows the question, a typing indicator in the status region, then the reply', async () => {
    renderApp({ 'POST /chat': answer('We open at 9.') });
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fakeServer = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate;
      return fakeServer(...args);
    });
    await openChatbot();

    ask('When do you open?');
    expect(within(conversation()).getByText('When do you open?')).toBeTruthy();
    expect(status()?.textContent).toBe(CHATBOT_TYPING);
    expect(within(conversation()).queryByText('We open at 9.')).toBeNull();

    // One question at a time: a second one waits in the box.
    ask('And close?');
    expect(
      within(dialog()).getByText('Digi Chatbot is still answering your last question.'),
    ).toBeTruthy();
    expect(input().value).toBe('And close?');

    await act(async () => release());
    await within(conversation()).findByText('We open at 9.');
    // Only the new reply is announced, not the whole conversation.
    expect(status()?.textContent).toBe('We open at 9.');
    const lines = within(conversation())
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toEqual(['You: When do you open?', 'Digi Chatbot: We open at 9.']);
  });

  it('shows the reply as plain text with its line breaks, and its app links as links', async () => {
    const { router } = renderApp({
      'POST /chat': answer('<b>Not bold</b>\n<img src=x onerror=alert(1)>', [
        { label: 'Reserve a book', href: '/offline-book-service' },
        { label: 'Elsewhere', href: 'https://evil.example/' },
        { label: 'Sneaky', href: '/\\evil.example' },
      ]),
    });
    await openChatbot();
    ask('Can I reserve a book?');

    const text = await within(conversation()).findByText(/Not bold/);
    expect(text.textContent).toBe('Digi Chatbot: <b>Not bold</b>\n<img src=x onerror=alert(1)>');
    expect(dialog().querySelector('b, img')).toBeNull();

    const links = within(dialog()).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Reserve a book']);
    expect(links[0]?.getAttribute('href')).toBe('/offline-book-service');
    fireEvent.click(links[0]!);
    await screen.findByRole('heading', { name: 'Reservation' });
    expect(router.state.location.pathname).toBe('/offline-book-service');
  });

  it("says 'No response.' for an empty reply", async () => {
    renderApp({ 'POST /chat': answer('  \n ') });
    await openChatbot();
    ask('Hello?');
    expect((await within(conversation()).findByText(CHATBOT_TEXT.noResponse)).textContent).toBe(
      `Digi Chatbot: ${CHATBOT_TEXT.noResponse}`,
    );
  });

  it('says the server could not be reached on a network failure or a server error', async () => {
    let reply: 'network-error' | { status: number; body: unknown } = 'network-error';
    renderApp({ 'POST /chat': () => reply });
    await openChatbot();

    ask('Hello?');
    await within(conversation()).findByText(CHATBOT_TEXT.unreachable);
    expect(status()?.textContent).toBe(CHATBOT_TEXT.unreachable);

    reply = { status: 503, body: { success: false, message: 'Model overloaded' } };
    ask('Still there?');
    await waitFor(() =>
      expect(within(conversation()).getAllByText(CHATBOT_TEXT.unreachable)).toHaveLength(2),
    );
    expect(within(conversation()).queryByText('Model overloaded')).toBeNull();
  });

  it('shows a refusal’s own message as an error line', async () => {
    renderApp({
      'POST /chat': () => ({
        status: 429,
        body: { success: false, message: 'Too many questions. Wait a minute.' },
      }),
    });
    await openChatbot();
    ask('Hello?');
    const line = (await within(conversation()).findByText(/Too many questions/)).closest('li');
    expect(line?.textContent).toBe('Digi Chatbot, error: !Too many questions. Wait a minute.');
    expect(line?.hasAttribute('data-error')).toBe(true);
    expect(status()?.textContent).toBe('Error: Too many questions. Wait a minute.');
  });

  it('refuses a prompt beyond the limit and counts the characters left', async () => {
    const { chatCalls } = renderApp({ 'POST /chat': answer('ok') });
    await openChatbot();
    expect(input().maxLength).toBe(CHATBOT_PROMPT_MAX);
    expect(within(dialog()).getByText('2,000 characters left')).toBeTruthy();

    type('x'.repeat(CHATBOT_PROMPT_MAX - 5));
    expect(within(dialog()).getByText('5 characters left')).toBeTruthy();

    ask('x'.repeat(CHATBOT_PROMPT_MAX + 1));
    expect(within(dialog()).getByRole('alert').textContent).toBe(
      'A question can be at most 2,000 characters.',
    );
    expect(chatCalls()).toHaveLength(0);
  });

  it('sends no more than the turns the server reads', async () => {
    const lines = Array.from({ length: 50 }, (_, index) => ({
      sender: index % 2 === 0 ? 'user' : 'bot',
      text: `Line ${index}`,
    }));
    sessionStorage.setItem(CHATBOT_STORAGE_KEY, JSON.stringify({ sessionId: 's-1', lines }));
    const { chatCalls } = renderApp({ 'POST /chat': answer('ok') });
    await openChatbot();
    ask('Next');
    await waitFor(() => expect(chatCalls()).toHaveLength(1));
    const sent = body(chatCalls()[0]);
    expect(sent.sessionId).toBe('s-1');
    expect(sent.history).toHaveLength(CHATBOT_HISTORY_TURNS * 2);
    expect(sent.history?.[0]).toEqual({ sender: 'user', text: 'Line 10' });
    expect(sent.history?.at(-1)).toEqual({ sender: 'bot', text: 'Line 49' });
  });

  it('Clear empties the conversation and starts a new session', async () => {
    const { chatCalls } = renderApp({ 'POST /chat': answer('First answer') });
    await openChatbot();
    ask('First question');
    await within(conversation()).findByText('First answer');
    expect(sessionStorage.getItem(CHATBOT_STORAGE_KEY)).toContain('First answer');

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Clear' }));
    expect(within(conversation()).getByText(CHATBOT_TEXT.welcome)).toBeTruthy();
    expect(within(conversation()).queryByText('First answer')).toBeNull();
    expect(sessionStorage.getItem(CHATBOT_STORAGE_KEY)).toBeNull();
    expect(document.activeElement).toBe(input());

    ask('Second question');
    await waitFor(() => expect(chatCalls()).toHaveLength(2));
    const [first, second] = chatCalls().map(body);
    expect(second?.sessionId).not.toBe(first?.sessionId);
    expect(second?.history).toEqual([]);
  });

  it('closes on Escape or Close and gives the focus back to the toggle', async () => {
    renderApp();
    await openChatbot();
    type('half a question');
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle());

    fireEvent.click(toggle());
    await waitFor(() => expect(document.activeElement).toBe(input()));
    // The draft waited while the window was closed.
    expect(input().value).toBe('half a question');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(toggle());
  });

  it('keeps the conversation across screens and across a reload of the tab', async () => {
    const { router, view } = renderApp({ 'POST /chat': answer('Kept answer') });
    await openChatbot();
    ask('Kept question');
    await within(conversation()).findByText('Kept answer');

    await act(() => router.navigate('/other'));
    expect(screen.getByRole('heading', { name: 'Other screen' })).toBeTruthy();
    expect(within(conversation()).getByText('Kept question')).toBeTruthy();
    expect(within(conversation()).getByText('Kept answer')).toBeTruthy();

    // A reload: the app starts again, the tab's storage remains.
    view.unmount();
    renderApp();
    await openChatbot();
    expect(within(conversation()).getByText('Kept question')).toBeTruthy();
    expect(within(conversation()).getByText('Kept answer')).toBeTruthy();
  });
});
