import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pagePlainText } from '#contract/page-text.ts';
import { ReadAloud, sentencesOf } from './read-aloud.tsx';

/** An utterance as the fake synthesis keeps it: the test ends it or fails it. */
class FakeUtterance {
  rate = 1;
  lang = '';
  onend: (() => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  constructor(readonly text: string) {}
}

/** The browser's `speechSynthesis`, doing nothing but remembering. */
class FakeSynthesis {
  spoken: FakeUtterance[] = [];
  current: FakeUtterance | null = null;
  cancels = 0;
  pending = false;
  get speaking() {
    return this.current !== null;
  }
  speak(utterance: FakeUtterance) {
    this.spoken.push(utterance);
    this.current = utterance;
  }
  cancel() {
    this.cancels++;
    const interrupted = this.current;
    this.current = null;
    interrupted?.onerror?.({ error: 'interrupted' });
  }
  /** The current utterance reaches its end. */
  finish() {
    const done = this.current;
    this.current = null;
    act(() => done?.onend?.());
  }
}

const PAGE = '# Letter 1\n\nYou will rejoice to hear it. The ship sailed on! Did he?';
const NEXT = 'The second page. It goes on.';

let synth: FakeSynthesis;

beforeEach(() => {
  synth = new FakeSynthesis();
  vi.stubGlobal('speechSynthesis', synth);
  vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance);
});
afterEach(() => vi.unstubAllGlobals());

describe('sentences of a page', () => {
  it('splits the plain text into trimmed sentences with their offsets, lines apart', () => {
    const plain = pagePlainText(PAGE);
    const sentences = sentencesOf(plain);
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      'Letter 1',
      'You will rejoice to hear it.',
      'The ship sailed on!',
      'Did he?',
    ]);
    for (const sentence of sentences)
      expect(plain.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });

  it('splits by punctuation and lines where the browser has no Intl.Segmenter', () => {
    vi.stubGlobal('Intl', { ...Intl, Segmenter: undefined });
    const plain = 'One. Two!” Three\nFour?\n***';
    const sentences = sentencesOf(plain);
    expect(sentences.map((sentence) => sentence.text)).toEqual(['One.', 'Two!”', 'Three', 'Four?']);
    for (const sentence of sentences)
      expect(plain.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });
});

describe('ReadAloud', () => {
  it('reads sentence by sentence, reports each, and goes on to the next page', async () => {
    const onSpeaking = vi.fn();
    const onFinished = vi.fn();
    const { rerender } = render(
      <ReadAloud text={PAGE} onSpeaking={onSpeaking} onFinished={onFinished} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Listen' }));
    expect(synth.spoken.map((utterance) => utterance.text)).toEqual(['Letter 1']);
    expect(onSpeaking).toHaveBeenLastCalledWith({ start: 0, end: 8 });
    synth.finish();
    expect(synth.spoken.at(-1)?.text).toBe('You will rejoice to hear it.');
    const plain = pagePlainText(PAGE);
    expect(onSpeaking).toHaveBeenLastCalledWith({
      start: plain.indexOf('You'),
      end: plain.indexOf(' The ship'),
    });
    synth.finish();
    synth.finish();
    expect(onFinished).not.toHaveBeenCalled();
    synth.finish();
    expect(onFinished).toHaveBeenCalledTimes(1);
    expect(onSpeaking).toHaveBeenLastCalledWith(null);
    // The viewer turns the page: reading goes on.
    rerender(<ReadAloud text={NEXT} onSpeaking={onSpeaking} onFinished={onFinished} />);
    expect(synth.spoken.at(-1)?.text).toBe('The second page.');
    expect(onSpeaking).toHaveBeenLastCalledWith({ start: 0, end: 16 });
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it('pauses, resumes the same sentence, changes speed and stops', async () => {
    const onSpeaking = vi.fn();
    const { rerender } = render(<ReadAloud text={PAGE} onSpeaking={onSpeaking} />);
    const main = screen.getByRole('button', { name: 'Listen' });
    await userEvent.click(main);
    synth.finish();
    await userEvent.click(main);
    expect(main.textContent).toContain('Resume');
    expect(synth.current).toBeNull();
    await userEvent.click(main);
    expect(synth.spoken.map((utterance) => utterance.text)).toEqual([
      'Letter 1',
      'You will rejoice to hear it.',
      'You will rejoice to hear it.',
    ]);
    expect(document.activeElement).toBe(main);

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Speed' }), '1.5');
    expect(synth.spoken.at(-1)).toMatchObject({ text: 'You will rejoice to hear it.', rate: 1.5 });
    synth.finish();
    expect(synth.spoken.at(-1)).toMatchObject({ text: 'The ship sailed on!', rate: 1.5 });

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(synth.current).toBeNull();
    expect(onSpeaking).toHaveBeenLastCalledWith(null);
    expect(main.textContent).toContain('Listen');
    // A new page while stopped reads nothing.
    const count = synth.spoken.length;
    rerender(<ReadAloud text={NEXT} onSpeaking={onSpeaking} />);
    expect(synth.spoken).toHaveLength(count);
  });

  it('stops reading on a speech error other than its own cancel', async () => {
    const onSpeaking = vi.fn();
    render(<ReadAloud text={PAGE} onSpeaking={onSpeaking} />);
    await userEvent.click(screen.getByRole('button', { name: 'Listen' }));
    act(() => synth.current?.onerror?.({ error: 'synthesis-failed' }));
    expect(screen.getByRole('button', { name: 'Listen' })).toBeTruthy();
    expect(onSpeaking).toHaveBeenLastCalledWith(null);
  });

  it('stops the voice when it leaves the page', async () => {
    const { unmount } = render(<ReadAloud text={PAGE} />);
    await userEvent.click(screen.getByRole('button', { name: 'Listen' }));
    unmount();
    expect(synth.current).toBeNull();
  });

  it('says so when the browser has no speech synthesis', () => {
    vi.stubGlobal('speechSynthesis', undefined);
    render(<ReadAloud text={PAGE} />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText(/does not have/)).toBeTruthy();
  });
});

describe('ReadAloud between pages', () => {
  it('waits while the next page loads instead of finishing it at once', async () => {
    const onFinished = vi.fn();
    const { rerender } = render(<ReadAloud text="Only one." onFinished={onFinished} />);
    await userEvent.click(screen.getByRole('button', { name: 'Listen' }));
    synth.finish();
    expect(onFinished).toHaveBeenCalledTimes(1);
    rerender(<ReadAloud text="" onFinished={onFinished} />);
    expect(onFinished).toHaveBeenCalledTimes(1);
    rerender(<ReadAloud text="Then another." onFinished={onFinished} />);
    expect(synth.spoken.at(-1)?.text).toBe('Then another.');
  });
});
