/**
 * The examples the Digi Chatbot's intent matcher learns from (issue 25, decision 039): for each
 * intent, a few phrasings as students type them, and keywords that tip a close call. Adding a
 * phrasing here is how the assistant learns a new way of asking; no pattern elsewhere needs to
 * change. The examples are compared with a question by TF-IDF cosine over their words
 * (server/chatbot/pipeline/classify.ts), after the question is normalised and its framing
 * stripped, so they are written in lower case without framing or punctuation.
 *
 * Questions about the catalogue (a title, an author, a topic) are examples of `catalogue`: the
 * matcher only has to tell them apart from the library's help topics, and the extraction step
 * reads what they ask for.
 */

/** The intents the matcher chooses between. */
export const MATCHED_INTENTS = [
  'hours',
  'contact',
  'account-password',
  'account-signin',
  'account-signup',
  'account-password-rules',
  'account-change-password',
  'reserve-howto',
  'circulation-howto',
  'my-reservations',
  'my-loans',
  'my-requests',
  'request-howto',
  'forum-howto',
  'greeting',
  'thanks',
  'help',
  'recommend-general',
  'catalogue',
  'off-topic',
] as const;
export type MatchedIntent = (typeof MATCHED_INTENTS)[number];

/** Example phrasings and tipping keywords of one intent. */
export interface IntentExamples {
  examples: string[];
  /** Words (after normalising) that add {@link KEYWORD_BOOST} each when the question has them. */
  keywords?: string[];
}

/** What one keyword adds to an intent's score. */
export const KEYWORD_BOOST = 0.25;

/** Below this score the question is not understood: the assistant says so (never guesses). */
export const INTENT_THRESHOLD = 0.42;

export const INTENT_EXAMPLES: Record<MatchedIntent, IntentExamples> = {
  hours: {
    examples: [
      'what time does the library open',
      'when do you open',
      'when do you close today',
      'opening hours',
      'library hours',
      'are you open on sunday',
      'is the library open on saturday',
      'how late are you open',
      'what time do you close on friday',
      'are you open on the weekend',
      'is the library open during the holidays',
      'are you open on christmas',
      'open tonight',
      'can i come in tomorrow morning',
      'what are the hours on monday',
      'can i study there on the weekend',
      'opening times',
    ],
    keywords: ['open', 'opening', 'close', 'closing', 'hours', 'tonight', 'weekend', 'holidays'],
  },
  contact: {
    examples: [
      'what is the phone number',
      'what is your address',
      'where is the library',
      'how do i email the librarians',
      'how do i contact a librarian',
      'can i call you',
      'how do i get in touch',
      'can i talk to a real person',
      'i need to talk to someone at the library',
      'how do i find the library on campus',
      'what is the email address',
      'how do i get to the library building',
    ],
    keywords: ['phone', 'address', 'email', 'contact', 'call', 'person', 'librarian', 'located'],
  },
  'account-password': {
    examples: [
      'i forgot my password',
      'how do i reset my password',
      'how do i get my password back',
      'i cant log in',
      'i cant sign in to my account',
      'lost my password',
      'i never got the reset email',
      'password reset email did not arrive',
    ],
    keywords: ['forgot', 'reset', 'lost'],
  },
  'account-signin': {
    examples: [
      'where do i sign in',
      'how do i log in',
      'can i sign in with my google account',
      'login with google',
      'can i use google instead',
      'where is the login page',
    ],
    keywords: ['google', 'login', 'signin'],
  },
  'account-signup': {
    examples: [
      'how do i sign up',
      'how do i make an account',
      'how to register',
      'create an account',
      'can i sign up as faculty',
      'can i sign up as a librarian',
      'what kinds of accounts are there',
      'what roles are there',
      'can teachers use this site too',
      'how do they sign up',
      'do i need an account',
    ],
    keywords: ['signup', 'register', 'faculty', 'roles', 'kinds', 'teachers', 'lecturer'],
  },
  'account-password-rules': {
    examples: [
      'how long does my password have to be',
      'password requirements',
      'how many characters does a password need',
    ],
  },
  'account-change-password': {
    examples: ['how do i change my password', 'change my password', 'update my password'],
    keywords: ['change'],
  },
  'reserve-howto': {
    examples: [
      'how do i reserve a book',
      'how can i book a physical copy of a book',
      'what are the pickup times',
      'what times can i pick up a reserved book',
      'how long do you hold my reservation',
      'how long do you hold it for',
      'how many books can i reserve at once',
      'how many at once',
      'can i reserve a book for next week',
      'how do i cancel a reservation',
      'what happens if i dont pick up my reserved book',
      'can i reserve books',
      'time slots',
    ],
    keywords: ['reserve', 'reservation', 'pickup', 'slots', 'cancel'],
  },
  'circulation-howto': {
    examples: [
      'how long can i keep a book',
      'how long can i borrow a book for',
      'can i renew my loan',
      'can i renew it',
      'what if all the copies are taken',
      'how do i join the waiting list',
      'when a copy comes free how long do i have to book it',
      'how many waiting lists can i be on',
      'how many holds can i have',
      'when is my book due',
    ],
    keywords: ['renew', 'loan', 'keep', 'waiting', 'holds', 'due', 'taken'],
  },
  'my-reservations': {
    examples: [
      'what are my reservations',
      'did my reservation go through',
      'when do i need to pick up my book',
      'do i have any books reserved',
      'what have i reserved',
      'my reservations',
      'did my booking go through',
      'cancel my reservation',
      'do i have a reservation',
    ],
  },
  'my-loans': {
    examples: [
      'what books do i have out right now',
      'my loans',
      'what have i borrowed',
      'which books do i have on loan',
    ],
  },
  'my-requests': {
    examples: [
      'what is the status of the book i requested',
      'any update on my book request',
      'what happened to my request',
      'did my request get approved',
      'what did i request',
      'my requests',
      'has my request been approved yet',
    ],
  },
  'request-howto': {
    examples: [
      'how do i request a book',
      'how do i suggest a book for the library to buy',
      'the library doesnt have the textbook i need',
      'how do i request an article i cant find',
      'what happens after i submit a request',
      'how will i know if my request was accepted',
      'where can i see if they said yes',
      'how do i ask you to buy it',
      'can you order a book',
    ],
    keywords: ['request', 'suggest', 'buy', 'purchase', 'order'],
  },
  'forum-howto': {
    examples: [
      'is there a discussion forum',
      'is there a chat for students',
      'how do chat rooms work',
      'can i make my own room',
      'what happens if someone swears in the forum',
      'someone is being rude in a chat room',
      'where is the forum',
      'is there somewhere to chat with other students about a course',
    ],
    keywords: ['forum', 'room', 'rooms', 'chat', 'rude', 'swears'],
  },
  greeting: {
    examples: ['hi', 'hello', 'hey', 'hi there', 'good morning', 'hello there'],
  },
  thanks: {
    examples: ['thanks', 'thank you', 'thanks a lot', 'cheers', 'ok thanks', 'great thanks'],
  },
  help: {
    examples: ['what can you do', 'who are you', 'help', 'how do you work'],
  },
  'recommend-general': {
    examples: [
      'recommend a classic romance novel',
      'recommend a good book',
      'what should i read',
      'im bored what should i read',
      'suggest a spooky gothic book',
      'a good mystery novel',
      'i want an adventure book to read',
      'recommend a classic sci fi book',
    ],
    keywords: ['recommend', 'suggest', 'read'],
  },
  catalogue: {
    examples: [
      'who wrote the hunger games',
      'who is the author of',
      'books by agatha christie',
      'papers by geoffrey hinton',
      'do you have the great gatsby',
      'is frankenstein available',
      'books on time travel',
      'papers on quantum computing',
      'research about neural networks',
      'something like frankenstein',
      'when was it published',
      'tell me about moby dick',
      'isbn',
      'arxiv',
      'any free python courses',
      'have you got any',
      'do you have anything by',
      'i want to learn about',
    ],
    keywords: ['wrote', 'author', 'books', 'papers', 'courses', 'isbn', 'arxiv', 'available'],
  },
  'off-topic': {
    examples: [
      'what is the weather like today',
      'is it going to rain tomorrow',
      'write my essay',
      'write me an essay about it',
      'tell me a joke',
      'who won the football game',
      'recommend a good pizza place',
      'solve this equation',
      'what is the wifi password',
      'can you do my homework',
      'who will win the election',
      'how much does printing cost',
      'is there parking near the library',
      'how much is the fine for a late book',
      'what are the late fees',
      'can i bring coffee in',
      'what is the meaning of life',
      'you are a useless stupid bot',
    ],
    keywords: [
      'weather',
      'rain',
      'essay',
      'joke',
      'football',
      'pizza',
      'wifi',
      'homework',
      'election',
      'printing',
      'parking',
      'fine',
      'fee',
      'cost',
      'coffee',
      'stupid',
      'useless',
      'meaning',
    ],
  },
};
