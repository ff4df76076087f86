import type { Insertable } from 'kysely';
import type { ItemsTable } from './schema.ts';

type DemoItem = Omit<Insertable<ItemsTable>, 'source'>;

/**
 * The app's own small demo catalogue, written for this project. The classics are public-domain
 * works (their titles, authors and years are facts); the papers and course materials are invented
 * for the demo and say so in their descriptions.
 */
export const DEMO_ITEMS: DemoItem[] = [
  {
    kind: 'book',
    source_id: 'book-pride-and-prejudice',
    copies: 3,
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
    copies: 2,
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
    copies: 2,
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
    copies: 1,
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
    copies: 1,
    // Its one copy is out on loan: the reservation screen's unavailable book.
    copies_unavailable: 1,
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

/** The reading-guide pages of a demo book, in the viewer's markup (# headings, lists, **bold**). */
export function demoGuidePages(item: DemoItem): string[] {
  const guide = GUIDES[item.source_id];
  if (!guide) return [];
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
    ].join('\n'),
  ];
}
