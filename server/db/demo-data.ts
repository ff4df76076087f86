import { DEMO_BOOKS } from './demo-data/books.ts';
import { DEMO_COURSES } from './demo-data/courses.ts';
import { FRANKENSTEIN_COMPANION_PAGES } from './demo-data/frankenstein-companion.ts';
import { DEMO_PAPERS } from './demo-data/papers.ts';
import type { DemoItem } from './demo-data/types.ts';

export {
  DEMO_LOCATIONS,
  demoHoldings,
  type DemoHoldings,
  type DemoItem,
} from './demo-data/types.ts';

/**
 * The first demo items, which tests and the end-to-end suite name by their `source_id`: five
 * books with copies (one of them out on loan), one without, three papers and three course
 * materials.
 */
const FIRST_ITEMS: DemoItem[] = [
  {
    kind: 'book',
    source_id: 'book-pride-and-prejudice',
    holdings: { copies: 3 },
    title: 'Pride and Prejudice',
    authors: ['Jane Austen'],
    year: 1813,
    subjects: ['fiction', 'romance', 'england', 'social classes'],
    description:
      'Elizabeth Bennet and Fitzwilliam Darcy misjudge each other, and slowly learn better, in a novel of manners set among the landed gentry of Regency England.',
  },
  {
    kind: 'book',
    source_id: 'book-frankenstein',
    holdings: { copies: 2 },
    title: 'Frankenstein; or, The Modern Prometheus',
    authors: ['Mary Wollstonecraft Shelley'],
    year: 1818,
    subjects: ['fiction', 'science fiction', 'gothic', 'science'],
    description:
      'Victor Frankenstein gives life to a creature and abandons it; the creature, rejected by everyone it meets, turns on its maker.',
  },
  {
    kind: 'book',
    source_id: 'book-the-time-machine',
    holdings: { copies: 2 },
    title: 'The Time Machine',
    authors: ['H. G. Wells'],
    year: 1895,
    subjects: ['fiction', 'science fiction', 'time travel', 'science'],
    description:
      'A Victorian inventor travels to the year 802,701 and finds humanity split into the gentle Eloi and the underground Morlocks.',
  },
  {
    kind: 'book',
    source_id: 'book-alice-in-wonderland',
    holdings: { copies: 1 },
    title: "Alice's Adventures in Wonderland",
    authors: ['Lewis Carroll'],
    year: 1865,
    subjects: ['fiction', 'fantasy', 'children'],
    description:
      'Alice follows a White Rabbit down a hole into a world of talking animals, mad tea parties and a furious Queen of Hearts.',
  },
  {
    kind: 'book',
    source_id: 'book-a-christmas-carol',
    // Its one copy is out on loan: the reservation screen's unavailable book.
    holdings: { copies: 1, unavailable: 1 },
    title: 'A Christmas Carol',
    authors: ['Charles Dickens'],
    year: 1843,
    subjects: ['fiction', 'christmas', 'ghost stories', 'history'],
    description:
      'The miser Ebenezer Scrooge is visited on Christmas Eve by the ghost of his partner and three spirits who show him what his life has been and could be.',
  },
  {
    kind: 'book',
    source_id: 'book-jekyll-and-hyde',
    title: 'The Strange Case of Dr Jekyll and Mr Hyde',
    authors: ['Robert Louis Stevenson'],
    year: 1886,
    subjects: ['fiction', 'gothic', 'horror', 'psychology'],
    description:
      'A London lawyer investigates the link between his respected friend Dr Jekyll and the violent Edward Hyde.',
  },
  {
    kind: 'paper',
    source_id: 'paper-open-access-survey',
    title: 'Open Access in University Libraries: A Survey of Student Habits',
    authors: ['Amara Okafor', 'Lukas Brandt'],
    year: 2024,
    subjects: ['library science', 'open access', 'non-fiction'],
    description:
      'Demo paper written for Digi Library: how 1,200 students find, read and cite open-access material, and what libraries can do to help.',
  },
  {
    kind: 'paper',
    source_id: 'paper-search-ranking',
    title: 'Ranking Catalogue Search Results with Weighted Full-Text Fields',
    authors: ['Mei Chen', 'Rafael Ortiz'],
    year: 2023,
    subjects: ['information retrieval', 'databases', 'science'],
    description:
      'Demo paper written for Digi Library: weighting titles above authors, subjects and abstracts improves the first page of results for short queries.',
  },
  {
    kind: 'paper',
    source_id: 'paper-moderation-chat',
    title: 'Keeping Student Discussion Rooms Civil: Word Lists and Beyond',
    authors: ['Hannah Lindqvist'],
    year: 2025,
    subjects: ['online communities', 'moderation', 'non-fiction'],
    description:
      'Demo paper written for Digi Library: what simple word lists catch in student chat, what they miss, and how rooms recover.',
  },
  {
    kind: 'course',
    source_id: 'course-intro-databases',
    title: 'Introduction to Databases: Lecture Notes',
    authors: ['Dr. Priya Raman'],
    year: 2025,
    subjects: ['computer science'],
    description:
      'Demo course material written for Digi Library: relational modelling, SQL and transactions.',
  },
  {
    kind: 'course',
    source_id: 'course-academic-writing',
    title: 'Academic Writing Workshop Handbook',
    authors: ['Prof. Daniel Mensah'],
    year: 2024,
    subjects: ['writing', 'non-fiction'],
    description:
      'Demo course material written for Digi Library: structuring an argument and citing sources.',
  },
  {
    kind: 'course',
    source_id: 'course-world-history',
    title: 'World History 101: Reading Pack',
    authors: ['Dr. Elena Petrova'],
    year: 2023,
    subjects: ['history'],
    description:
      'Demo course material written for Digi Library: primary sources from the ancient world to 1900.',
  },
];

/**
 * The app's own demo catalogue, written for this project. The classics are public-domain works
 * (their titles, authors and years are facts, the descriptions our own words); the papers and
 * course materials are invented for the demo and say so in their descriptions.
 */
export const DEMO_ITEMS: DemoItem[] = [
  ...FIRST_ITEMS,
  ...DEMO_BOOKS,
  ...DEMO_PAPERS,
  ...DEMO_COURSES,
];

/** Themes and study questions of the demo classics, our own words: the pages of a short reading guide. */
const GUIDES: Record<string, { themes: string[]; questions: string[] }> = {
  'book-pride-and-prejudice': {
    themes: [
      'First impressions and how they mislead',
      'Marriage, money and social standing',
      'Pride as both virtue and fault',
    ],
    questions: [
      'How does Elizabeth’s opinion of Darcy change, and what causes each change?',
      'What does the novel suggest about marrying for security rather than love?',
      'Which characters never change, and why might Austen keep them fixed?',
    ],
  },
  'book-frankenstein': {
    themes: [
      'The responsibility of a creator',
      'Isolation and the need for companionship',
      'Ambition that outruns judgement',
    ],
    questions: [
      'Who is the real monster of the story, and what makes you say so?',
      'Why does the novel nest several narrators inside each other?',
      'How does the creature learn language, and what does it learn with it?',
    ],
  },
  'book-the-time-machine': {
    themes: [
      'Class division projected into the far future',
      'Progress and decline',
      'Science as a way of seeing society',
    ],
    questions: [
      'What do the Eloi and the Morlocks stand for in Victorian England?',
      'Why does the Time Traveller’s first theory about the future turn out wrong?',
      'What is the effect of the frame story told at a dinner party?',
    ],
  },
  'book-alice-in-wonderland': {
    themes: [
      'Growing up and changing size',
      'Nonsense, logic and language games',
      'Rules without reason',
    ],
    questions: [
      'Which scene plays with the meaning of words most cleverly?',
      'How does Alice’s behaviour towards adults change during the book?',
      'Why might the story end with a trial?',
    ],
  },
  'book-a-christmas-carol': {
    themes: [
      'Redemption and second chances',
      'Poverty and public duty',
      'Memory and the passing of time',
    ],
    questions: [
      'What does each of the three spirits show Scrooge that he needed to see?',
      'How does Dickens make the Cratchit family matter to the reader?',
      'Is Scrooge’s change believable? Point to the moment it begins.',
    ],
  },
  'book-jekyll-and-hyde': {
    themes: [
      'The divided self',
      'Respectability and secrecy in Victorian London',
      'Science crossing moral limits',
    ],
    questions: [
      'Why does the mystery come to us through Utterson rather than Jekyll?',
      'What does Hyde’s appearance suggest about how the Victorians saw evil?',
      'How does the final statement change the way you read the earlier chapters?',
    ],
  },
};

/**
 * Chapter-by-chapter companions that follow a demo book's reading guide. Only Frankenstein has
 * one: the reading scenario of issue 24 opens it at a chapter from its contents and searches it,
 * which two pages of guide could not show.
 */
const COMPANIONS: Record<string, readonly string[]> = {
  'book-frankenstein': FRANKENSTEIN_COMPANION_PAGES,
};

/**
 * The reading-guide pages of a demo book, in the viewer's markup (# headings, lists, **bold**,
 * _italics_): "About" and "Study questions", then its chapter-by-chapter companion if it has one.
 */
export function demoGuidePages(item: DemoItem): string[] {
  const guide = GUIDES[item.source_id];
  if (!guide) return [];
  const companion = COMPANIONS[item.source_id] ?? [];
  return [
    [
      `# About ${item.title}`,
      '',
      item.description ?? '',
      '',
      `**Author:** ${item.authors?.join(', ')}. **First published:** ${item.year}.`,
      '',
      '## What to look for',
      '',
      ...guide.themes.map((theme) => `- ${theme}`),
    ].join('\n'),
    [
      '# Study questions',
      '',
      ...guide.questions.map((question, index) => `${index + 1}. ${question}`),
      '',
      '## Reading it yourself',
      '',
      'This guide was written by the library staff. Reserve a printed copy with the **Offline Book Service**, or ask at the desk for other editions.',
      // Said here rather than on the "About" page: the first page is what the book's embedding
      // reads (server/embeddings/item-text.ts), and this note says nothing of what the book is about.
      ...(companion.length > 0
        ? [
            '',
            'The pages after this one are a chapter-by-chapter companion to the novel, also written by the library staff: what happens in each letter and chapter, in our own words, and what to look for as you read.',
          ]
        : []),
    ].join('\n'),
    ...companion,
  ];
}

/** A demo chat room with its short conversation, written for this project. */
export interface DemoChatRoom {
  /** Names the room for the seed for good, whatever it is later called (`demo_seeds`). */
  key: string;
  name: string;
  /** Says that it is a demo room: a newcomer must not take these people for real ones. */
  description: string;
  /** Who the room says created it (the demo account owns it: server/db/seed.ts). */
  creatorName: string;
  /** How long before the first start the conversation began. */
  startedHoursAgo: number;
  /** Oldest first; `minute` counts from the start of the conversation. */
  messages: { sender: string; minute: number; content: string }[];
}

/**
 * Three forum rooms with a short conversation each, so that a newcomer's forum is not empty:
 * students revising with the demo course notes, a book club on the demo Frankenstein, and peer
 * feedback with the demo writing handbook. The people are invented.
 */
export const DEMO_CHAT_ROOMS: DemoChatRoom[] = [
  {
    key: 'chat-room-databases-final',
    name: 'Databases final: study group',
    description:
      'Demo room with an example conversation. Revising Introduction to Databases for the final: normal forms, joins and transactions.',
    creatorName: 'Maya',
    startedHoursAgo: 50,
    messages: [
      {
        sender: 'Maya',
        minute: 0,
        content:
          'Hi all! The Databases final is in two weeks. Anyone up for working through Dr. Raman’s lecture notes together?',
      },
      {
        sender: 'Jonah',
        minute: 6,
        content:
          'Yes please. SQL is fine, but normal forms still confuse me. When is a table in 3NF and not just 2NF?',
      },
      {
        sender: 'Maya',
        minute: 9,
        content:
          'How I remember it: in 2NF nothing depends on just part of the key; in 3NF nothing depends on another non-key column either. The student and adviser example in lecture 4 shows both.',
      },
      {
        sender: 'Aiko',
        minute: 15,
        content:
          'The lecture notes are in the library catalogue if you search for Introduction to Databases. The table of isolation levels in the transactions chapter is worth copying out.',
      },
      {
        sender: 'Jonah',
        minute: 21,
        content:
          'Found them, thanks. Shall we do last year’s paper too? I’d like to time myself on the ER diagram question.',
      },
      {
        sender: 'Maya',
        minute: 24,
        content: 'Good idea. Thursday at 4 in one of the library’s group study rooms?',
      },
      {
        sender: 'Aiko',
        minute: 30,
        content: 'Works for me. I’ll bring my answers to questions 1 to 3 so we can compare.',
      },
    ],
  },
  {
    key: 'chat-room-book-club-frankenstein',
    name: 'Book club: Frankenstein',
    description:
      'Demo room with an example conversation. This month’s book club reads Mary Shelley’s Frankenstein; the library holds two copies.',
    creatorName: 'Fatima',
    startedHoursAgo: 26,
    messages: [
      {
        sender: 'Fatima',
        minute: 0,
        content:
          'Welcome to this month’s book club! We’re reading Frankenstein. How far has everyone got?',
      },
      {
        sender: 'Leo',
        minute: 12,
        content:
          'I just finished the creature’s own story in the middle chapters. I didn’t expect him to be the most sympathetic voice in the book.',
      },
      {
        sender: 'Sana',
        minute: 20,
        content:
          'Same here. The part where he learns to read by listening to the family in the cottage got me.',
      },
      {
        sender: 'Fatima',
        minute: 31,
        content:
          'A question for when we meet: is Victor’s real failure making the creature, or walking away from it?',
      },
      {
        sender: 'Leo',
        minute: 38,
        content: 'Walking away, for me. He never takes responsibility, right up to the last page.',
      },
      {
        sender: 'Sana',
        minute: 45,
        content:
          'I’m only halfway, so no spoilers please! I reserved the other copy at the desk, so I should catch up by the weekend.',
      },
      {
        sender: 'Fatima',
        minute: 47,
        content: 'No more spoilers from here on, promise. See you all next Friday.',
      },
    ],
  },
  {
    key: 'chat-room-academic-writing',
    name: 'Academic writing: peer feedback',
    description:
      'Demo room with an example conversation. Swapping feedback on essay introductions, with the Academic Writing Workshop Handbook.',
    creatorName: 'Nia',
    startedHoursAgo: 5,
    messages: [
      {
        sender: 'Nia',
        minute: 0,
        content:
          'Is anyone else stuck on the thesis statement for the history essay? Mine reads more like a topic than an argument.',
      },
      {
        sender: 'Omar',
        minute: 8,
        content:
          'The workshop handbook has a good test for that: could someone reasonably disagree with your sentence? If not, it’s a topic.',
      },
      {
        sender: 'Nia',
        minute: 11,
        content: 'Mine fails that. “The printing press changed Europe” is hard to disagree with.',
      },
      {
        sender: 'Omar',
        minute: 15,
        content:
          'Try saying how or why it changed it, something like “cheap printing loosened the Church’s control over what people could read”. Now someone could argue with you.',
      },
      {
        sender: 'Nia',
        minute: 22,
        content:
          'That’s much better. Could we swap introductions tomorrow and give each other feedback?',
      },
      {
        sender: 'Omar',
        minute: 25,
        content:
          'Sure, post yours here when it’s ready and I’ll do the same. The handbook’s chapter on citing sources helps too if you quote primary sources.',
      },
    ],
  },
];

/** Rows a first seed inserts: the catalogue, and each chat room with its messages. */
export const DEMO_ROW_COUNT =
  DEMO_ITEMS.length + DEMO_CHAT_ROOMS.reduce((sum, room) => sum + 1 + room.messages.length, 0);
