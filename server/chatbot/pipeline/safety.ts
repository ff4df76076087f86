/**
 * The chatbot pipeline's safety rules (decision 039), checked before anything is scored and
 * whatever the thread says: attempts to make the assistant drop its rules or show its
 * instructions, and questions about other people's records, which are never answered.
 */

/** Attempts to make the assistant drop its rules or show its instructions. */
const INJECTION = [
  /\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|rules|prompts?|guidelines|above|previous|prior)\b/,
  /\b(system|hidden|initial|original)\s+(prompt|instructions?|message)\b/,
  /\byour\s+(instructions|prompt|rules|guidelines)\b/,
  /\b(you are now|act as|pretend to be|roleplay as|jailbreak|developer mode|dan mode)\b/,
  /\b(print|reveal|repeat|show|tell me|output|leak)\b.{0,30}\b(prompt|instructions|configuration|secret|api key|password)s?\b/,
  /\b(repeat|recite|print|copy|output)\b.{0,40}\b(word for word|verbatim|everything (above|before))\b/,
  /\bwhat (were|was|have) you (been )?(told|instructed|given|programmed)\b/,
];

/** Questions about somebody else's records (never answered, whoever asks). */
const OTHERS_DATA = [
  /\b(all|every(one'?s)?|everybody'?s|other (people|users|students)'?s?|someone else'?s?|another (user|student)'?s?)\b.{0,30}\b(reserv\w*|request\w*|book(ed|ings?)|borrow\w*|records?|loans?|e-?mails?|accounts?|passwords?|phone numbers?)\b/,
  /\b(reservations?|requests?|bookings?|records?|loans?|e-?mails?|e-?mail addresses|addresses|accounts?|passwords?|phone numbers?|names)\b.{0,30}\b(of|for|by|made by|from|belonging to)\s+(all|every|other|the other|another)\b/,
  /\b(reservations?|requests?|bookings?|loans?|records?)\b.{0,20}\b(of|for|by|made by)\b\s+(user|student|someone|somebody|[a-z0-9._%+-]+@[a-z0-9.-]+)/,
  /\b(who|which (students?|users?|people))\b.{0,20}\b(reserved|requested|borrowed|booked)\b/,
  /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}.{0,30}\b(reserv|request|borrow|book)/,
];

/** Other people's records asked for in everyday words ("everyone elses", "her loans"). */
const OTHERS_EVERYDAY =
  /\b(everyone|everybody|other (students?|people|users?))(?:'s| else'?s?| elses?)\b(?!.{0,20}\b(?:forum|rooms?)\b)|\bwhat did (the )?other (students|people|users) (ask|request|reserve|borrow)|\b(her|his|their|a friend'?s?|my friend'?s?) (requests?|reservations?|loans?|records?)\b|\b(check|see|show)\b.{0,30}\b(her|his) (requests?|reservations?|loans?)\b/;

/** "developer mode", "your hidden rules": asking for a mode or rules it does not have. */
const HIDDEN_MODE = /\b(developer|dev|god|admin) mode\b|\bhidden (rules|instructions|prompt)\b/;

/**
 * What a question asks that is never answered: `injection` (override the rules, show the
 * instructions) or `others-data` (someone else's records); undefined for every other question.
 * `text` is normalised (lower case, straight quotes, no markup).
 */
export function refusal(text: string): 'injection' | 'others-data' | undefined {
  if (INJECTION.some((pattern) => pattern.test(text))) return 'injection';
  if (OTHERS_DATA.some((pattern) => pattern.test(text))) return 'others-data';
  if (HIDDEN_MODE.test(text)) return 'injection';
  if (OTHERS_EVERYDAY.test(text)) return 'others-data';
  return undefined;
}
