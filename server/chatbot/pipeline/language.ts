/**
 * Step 2 of the chatbot's pipeline: a question in German, Spanish or French. The assistant answers
 * in English, and says so in English and in the question's language (issue 25); the words that
 * carry a library question (days, opening hours, the library) are read into English so that the
 * intent, when it is clear ("Samstag" → Saturday hours), is still answered.
 */

/** The languages recognised besides English. */
export type Language = 'de' | 'es' | 'fr';

/** The short fixed sentence, per language, saying the assistant answers in English. */
export const ANSWERS_IN_ENGLISH: Record<Language, string> = {
  de: 'Ich antworte auf Englisch.',
  es: 'Respondo en inglés.',
  fr: 'Je réponds en anglais.',
};

/** The English sentence said before every answer to a question in another language. */
export const ENGLISH_NOTE = 'I answer in English.';

/** Words only that language uses (or uses far more than English): two or more decide it. */
const MARKERS: Record<Language, RegExp> = {
  de: /\b(wann|hat|die|der|das|ist|und|geöffnet|geoffnet|öffnungszeiten|bibliothek|buch|bücher|haben|sie|ich|wie|wo|am|heute|morgen|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)\b/g,
  es: /\b(qué|que|hora|abre|cierra|la|el|biblioteca|libro|libros|tienen|dónde|donde|cuándo|cuando|lunes|martes|miércoles|jueves|viernes|sábado|sabado|domingo|hoy|mañana|horario)\b/g,
  fr: /\b(quels|quelle|quel|sont|les|horaires|bibliothèque|bibliotheque|livre|livres|avez|vous|où|quand|ouvert|ouverte|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|aujourd'hui|demain|de|la)\b/g,
};

/** Words read into English, per language: days, opening, the library. */
const GLOSSARY: Record<Language, Record<string, string>> = {
  de: {
    montag: 'monday',
    dienstag: 'tuesday',
    mittwoch: 'wednesday',
    donnerstag: 'thursday',
    freitag: 'friday',
    samstag: 'saturday',
    sonntag: 'sunday',
    wochenende: 'weekend',
    heute: 'today',
    morgen: 'tomorrow',
    geöffnet: 'open hours',
    geoffnet: 'open hours',
    öffnungszeiten: 'opening hours',
    offnungszeiten: 'opening hours',
    bibliothek: 'library',
    wann: 'when',
  },
  es: {
    lunes: 'monday',
    martes: 'tuesday',
    miércoles: 'wednesday',
    miercoles: 'wednesday',
    jueves: 'thursday',
    viernes: 'friday',
    sábado: 'saturday',
    sabado: 'saturday',
    domingo: 'sunday',
    hoy: 'today',
    abre: 'open',
    cierra: 'close',
    horario: 'opening hours',
    hora: 'time',
    biblioteca: 'library',
  },
  fr: {
    lundi: 'monday',
    mardi: 'tuesday',
    mercredi: 'wednesday',
    jeudi: 'thursday',
    vendredi: 'friday',
    samedi: 'saturday',
    dimanche: 'sunday',
    horaires: 'opening hours',
    ouvert: 'open',
    ouverte: 'open',
    bibliothèque: 'library',
    bibliotheque: 'library',
    demain: 'tomorrow',
  },
};

/** The language of a question when it is German, Spanish or French; undefined for English. */
export function detectLanguage(text: string): Language | undefined {
  const lower = text.toLowerCase();
  let best: Language | undefined;
  let bestCount = 1;
  for (const language of Object.keys(MARKERS) as Language[]) {
    const count = new Set(lower.match(MARKERS[language]) ?? []).size;
    if (count > bestCount) {
      best = language;
      bestCount = count;
    }
  }
  return best;
}

/** The question with the words of {@link GLOSSARY} read into English (others left as typed). */
export function glossed(text: string, language: Language): string {
  const words = GLOSSARY[language];
  return text.replace(/[\p{L}']+/gu, (word) => words[word.toLowerCase()] ?? word);
}
