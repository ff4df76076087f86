import { useEffect, useEffectEvent, useId, useMemo, useRef, useState } from 'react';
import { pagePlainText } from '#contract/page-text.ts';
import type { TextRange } from '../catalogue/page-text.tsx';
import { Button } from '../ui/button.tsx';
import styles from './reading.module.css';

/** A sentence of a page, with its offsets in the page's plain text. */
export interface Sentence extends TextRange {
  text: string;
}

/** The speeds offered, as the Web Speech API's `rate`. */
export const READ_ALOUD_RATES = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/**
 * A page's plain text as sentences, each trimmed, with its offsets. `Intl.Segmenter` knows
 * "3.5" and quotes around a sentence where the browser has it; otherwise a full stop, ! or ?
 * (and any closing quotes) ends one. A line break always does.
 */
export function sentencesOf(plain: string): Sentence[] {
  const pieces: { start: number; text: string }[] = [];
  if (typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function') {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
    for (const { segment, index } of segmenter.segment(plain)) {
      // A line break (after a heading, between list items) ends a sentence too.
      let start = index;
      for (const line of segment.split('\n')) {
        pieces.push({ start, text: line });
        start += line.length + 1;
      }
    }
  } else {
    for (const match of plain.matchAll(/[^\n.!?]+(?:[.!?]+["'”’)\]]*|$)|[.!?]+/gm))
      pieces.push({ start: match.index, text: match[0] });
  }
  const sentences: Sentence[] = [];
  for (const { start, text } of pieces) {
    const lead = text.length - text.trimStart().length;
    const trimmed = text.trim();
    // Nothing to say in a piece with no letter or digit (a lone "***").
    if (!/[\p{L}\p{N}]/u.test(trimmed)) continue;
    sentences.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
  }
  return sentences;
}

/** The browser's speech synthesis, when it has one. */
function speech(): { synth: SpeechSynthesis; Utterance: typeof SpeechSynthesisUtterance } | null {
  const scope = globalThis as Partial<typeof globalThis>;
  if (!scope.speechSynthesis || typeof scope.SpeechSynthesisUtterance !== 'function') return null;
  return { synth: scope.speechSynthesis, Utterance: scope.SpeechSynthesisUtterance };
}

type Playback = 'idle' | 'playing' | 'paused';

/**
 * ▶ or ⏸ drawn, not typed: the pause sign is missing from many systems' fonts (it showed as an
 * empty box in Chromium on Linux).
 */
function PlaybackIcon({ pause }: { pause: boolean }) {
  return (
    <svg aria-hidden="true" focusable="false" width="12" height="12" viewBox="0 0 12 12">
      {pause ? (
        <path d="M2 1h3v10H2zM7 1h3v10H7z" fill="currentColor" />
      ) : (
        <path d="M2 1l9 5-9 5z" fill="currentColor" />
      )}
    </svg>
  );
}

/**
 * "Listen": reads the page aloud with the browser's own speech synthesis (nothing leaves the
 * browser), one utterance per sentence so the sentence being read can be shown (`onSpeaking`)
 * and a speed change or Pause takes effect at once. At the page's end it calls `onFinished`;
 * when the parent then passes the next page's `text`, it goes on reading. Pause stops at the
 * current sentence and Resume reads it again (the browsers' own pause is unreliable).
 */
export function ReadAloud({
  text,
  onSpeaking,
  onFinished,
}: {
  /** The page's content, with its markup (read as its plain text); '' while it loads. */
  text: string;
  /** The sentence being read, or null when none is. */
  onSpeaking?: (range: TextRange | null) => void;
  /** The page has been read to its end. */
  onFinished?: () => void;
}) {
  const id = useId();
  const available = speech();
  const sentences = useMemo(() => sentencesOf(pagePlainText(text)), [text]);
  const [playback, setPlayback] = useState<Playback>('idle');
  const [rate, setRate] = useState(1);
  const [ended, setEnded] = useState(false);

  // What the speech callbacks read: always the latest, without restarting anything.
  const latest = useRef({ sentences, rate, onSpeaking, onFinished });
  useEffect(() => {
    latest.current = { sentences, rate, onSpeaking, onFinished };
  });
  // Each start bumps the generation: events of cancelled utterances are then ignored.
  const run = useRef({ generation: 0, index: 0 });

  const silence = () => {
    run.current.generation++;
    // Only when there is something to cancel: a cancel just before a speak can swallow it.
    if (available && (available.synth.speaking || available.synth.pending))
      available.synth.cancel();
  };

  const speakFrom = (index: number, list = latest.current.sentences) => {
    if (!available) return;
    const { synth, Utterance } = available;
    silence();
    const generation = run.current.generation;
    setEnded(false);
    const say = (at: number) => {
      if (generation !== run.current.generation) return;
      run.current.index = at;
      const sentence = list[at];
      if (!sentence) {
        latest.current.onSpeaking?.(null);
        setEnded(true);
        latest.current.onFinished?.();
        return;
      }
      const utterance = new Utterance(sentence.text);
      utterance.rate = latest.current.rate;
      utterance.lang = document.documentElement.lang || 'en';
      utterance.onend = () => say(at + 1);
      utterance.onerror = (event) => {
        // A cancel (Stop, Pause, a new page) interrupts on purpose; anything else stops.
        if (generation !== run.current.generation) return;
        if (event.error === 'interrupted' || event.error === 'canceled') return;
        run.current.generation++;
        latest.current.onSpeaking?.(null);
        setPlayback('idle');
      };
      latest.current.onSpeaking?.({ start: sentence.start, end: sentence.end });
      synth.speak(utterance);
    };
    say(index);
  };

  // A new page while playing: read it from its start. While paused, Resume starts it.
  const onNewPage = useEffectEvent((list: Sentence[]) => {
    run.current.index = 0;
    if (playback !== 'playing') silence();
    // No text yet (the next page is loading): wait for it rather than finish at once.
    else if (text.trim() !== '') speakFrom(0, list);
  });
  const lastSentences = useRef(sentences);
  useEffect(() => {
    if (lastSentences.current === sentences) return;
    lastSentences.current = sentences;
    onNewPage(sentences);
  }, [sentences]);

  // Leaving the page stops the voice.
  useEffect(
    () => () => {
      run.current.generation++;
      speech()?.synth.cancel();
    },
    [],
  );

  if (!available)
    return (
      <p className={styles.muted}>
        Read aloud needs the browser&apos;s speech synthesis, which this browser does not have.
      </p>
    );

  const main = () => {
    if (playback === 'playing') {
      silence();
      setPlayback('paused');
      return;
    }
    const from = playback === 'paused' ? run.current.index : 0;
    setPlayback('playing');
    speakFrom(from);
  };

  const stop = () => {
    silence();
    run.current.index = 0;
    setPlayback('idle');
    setEnded(false);
    onSpeaking?.(null);
  };

  return (
    <div className={styles.readAloud} role="group" aria-label="Read aloud">
      {/* One button for Listen, Pause and Resume, so the focus stays on it. */}
      <Button variant="outline" onClick={main}>
        <PlaybackIcon pause={playback === 'playing'} />
        {playback === 'playing' ? 'Pause' : playback === 'paused' ? 'Resume' : 'Listen'}
      </Button>
      {playback !== 'idle' ? (
        <Button variant="ghost" onClick={stop}>
          Stop
        </Button>
      ) : null}
      <label className={styles.speed} htmlFor={`${id}-rate`}>
        Speed
        <select
          id={`${id}-rate`}
          value={rate}
          onChange={(event) => {
            const next = Number(event.target.value);
            setRate(next);
            latest.current.rate = next;
            // The sentence being read starts again at the new speed.
            if (playback === 'playing') speakFrom(run.current.index);
          }}
        >
          {READ_ALOUD_RATES.map((value) => (
            <option key={value} value={value}>
              {value}×
            </option>
          ))}
        </select>
      </label>
      {playback === 'playing' && ended ? (
        <span className={styles.muted}>End of the page.</span>
      ) : null}
    </div>
  );
}
