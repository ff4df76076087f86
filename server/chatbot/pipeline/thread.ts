/**
 * Step 6 of the chatbot's pipeline: the thread. The widget sends the conversation so far as text
 * (`history`), so what a follow-up refers to is read back from that text: the items the bot's
 * last reply named (it quotes every title, “so”, and follows it with "by" and its authors), the
 * author a list was by, and what the person asked last. A follow-up ("who wrote it?", "and on
 * Sunday?", "more by her") is resolved against them; one with nothing to refer to is a question
 * back (`clarify`), never a guess.
 */
import type { ChatbotTurn } from '#contract/http/chatbot.ts';

/** An item a bot reply named. */
export interface ThreadItem {
  title: string;
  authors: string[];
  /** The reply said it is not in the catalogue ("I couldn’t find “…”"). */
  missing: boolean;
}

/** What a follow-up can refer to. */
export interface Thread {
  /** The items the bot's last reply named, in its order. */
  items: ThreadItem[];
  /** The author the latest list was by ("Books by H. G. Wells …"), or its first item's writer. */
  author?: string;
  /** The person's earlier questions, newest last. */
  questions: string[];
}

/**
 * Quoted spans that name a subject or a search, not an item: "about “x”", "for “x”", and the
 * reasons of a recommendation ("its title names “x”", "similar in meaning to “x”").
 */
const NOT_AN_ITEM = /(?:about|for|on|results for|named|called|names|meaning to)\s*$/;

/** The items one bot reply names. */
export function itemsIn(reply: string): ThreadItem[] {
  const items: ThreadItem[] = [];
  for (const match of reply.matchAll(/“([^”]{1,300})”/g)) {
    const start = match.index ?? 0;
    const lead = reply.slice(Math.max(0, start - 30), start);
    // A subject searched for, or an example question the help text quotes (“When are you open?”).
    if (NOT_AN_ITEM.test(lead) || /[?]$/.test(match[1]!)) continue;
    const missing = /couldn[’']t find\s*$/.test(lead);
    const after = reply.slice(start + match[0].length, start + match[0].length + 300);
    const by =
      after.match(/^ by (.+?)(?= \(\d{4}\)| \(|\n| is | are |(?<=\p{Ll}{2})\.(?:\s|$)|:|$)/u) ??
      after.match(/^(?: \(\d{4}\))? is by (.+?)(?:(?<=\p{Ll}{2})\.(?:\s|$)|\n|$)/u);
    const authors = by ? by[1]!.split(/, | and /).map((name) => name.trim()) : [];
    items.push({ title: match[1]!.trim(), authors: authors.filter(Boolean), missing });
  }
  return items;
}

/** The thread of a conversation, from its history (oldest first, as the widget sends it). */
export function readThread(history: readonly ChatbotTurn[]): Thread {
  const questions = history.filter((turn) => turn.sender === 'user').map((turn) => turn.text);
  // Only the last reply: what it named is what "it" can mean; anything older has moved on.
  const turn = history.findLast((earlier) => earlier.sender === 'bot');
  if (!turn) return { items: [], questions };
  const items = itemsIn(turn.text);
  const listBy = turn.text.match(/^\w[\w ]* by (.+?) in the catalogue/)?.[1];
  const author = listBy ?? items.find((item) => !item.missing)?.authors[0];
  return { items, author, questions };
}
