import type { ItemType } from '#contract/http/catalogue.ts';
import type { Day } from './pipeline/extract.ts';

/**
 * What a question asks for, as far as the built-in assistant can tell: what the pipeline
 * (server/chatbot/pipeline/, decision 039) understands and the assistant answers.
 */
export type Intent =
  | { kind: 'greeting' }
  | { kind: 'thanks' }
  | { kind: 'help' }
  | { kind: 'hours'; day?: Day }
  | { kind: 'contact' }
  | { kind: 'reserve-howto' }
  | { kind: 'request-howto' }
  | { kind: 'forum-howto' }
  | { kind: 'my-reservations' }
  | { kind: 'my-requests' }
  | { kind: 'others-data' }
  | { kind: 'injection' }
  | { kind: 'availability'; title: string }
  | { kind: 'author-of'; title: string }
  | { kind: 'works-by'; author: string; type?: ItemType }
  | { kind: 'topic'; topic: string; type?: ItemType }
  | {
      kind: 'recommend';
      title: string;
      withoutItself?: boolean;
      /** "any others?": the titles the last reply listed, never listed again. */
      shown?: string[];
    }
  // Issue 25: understood by the pipeline (server/chatbot/pipeline/).
  | { kind: 'account'; topic: AccountTopic }
  | { kind: 'circulation-howto' }
  | { kind: 'my-loans' }
  | { kind: 'clarify' }
  | { kind: 'lookup'; title: string; author?: string }
  | { kind: 'year-of'; title: string }
  | { kind: 'isbn'; isbn: string }
  | { kind: 'arxiv'; id: string }
  | { kind: 'borrowable'; titles: string[] }
  | {
      kind: 'recommend-topic';
      topic: string;
      type?: ItemType;
      /** "any others?": the titles the last reply listed, never listed again. */
      shown?: string[];
    }
  | { kind: 'request-this'; title: string }
  | { kind: 'unknown' };

/** What an account question is about. */
export type AccountTopic = 'password' | 'signin' | 'signup' | 'password-rules' | 'change-password';
