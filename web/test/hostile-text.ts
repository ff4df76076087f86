import { cleanup } from '@testing-library/react';
import fc from 'fast-check';
import { expect } from 'vitest';
import { XSS_PAYLOADS } from './xss-payloads.ts';

/*
 * What the renderers' property tests (`*.property.test.tsx`) feed the screens and check on them:
 * text that has broken renderers, and the property every screen must keep with it. The text
 * shows as given (the DOM's text holds it exactly), and nothing in the DOM comes from it: no
 * element the screen does not render itself, no event-handler or unknown attribute, and every
 * URL is http(s) or a path inside the app.
 */

/** Fixed cases: the fifty XSS payloads, and text that trips up text handling itself. */
export const HOSTILE_TEXTS: readonly string[] = [
  ...XSS_PAYLOADS,
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  '\u200F\u200E\u200B',
  '\uFEFFbom',
  'Z\u0337\u0322a\u0336l\u0334g\u0335o\u0338',
  '𝕏𝕐ℤ 🤷🏽‍♀️ ﷽ עברית العربية',
  '&lt;b&gt;not bold&lt;/b&gt; &amp; &#60;script&#62;',
  '**bold** _em_ `code` # heading',
  '[link](javascript:alert(1)) <https://evil.example>',
  'https://evil.example/phish',
  '//evil.example',
  '/\\evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  '${7*7} {{7*7}} <%= 7*7 %>',
  '__proto__',
  'constructor',
  'toString',
  'line one\r\nline two\ttab',
  '   spaced   ',
  'é'.repeat(3_000),
];

/** Hostile text: the fixed cases, random code units (lone surrogates, controls) and graphemes, and mixes. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.oneof(
          fc.constantFrom(...HOSTILE_TEXTS.slice(0, XSS_PAYLOADS.length)),
          fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
        ),
        { minLength: 2, maxLength: 4 },
      )
      .map((parts) => parts.join('')),
  },
);

/** Hostile text that is not blank, for fields whose screens show a fallback for blank ones. */
export const hostileWords: fc.Arbitrary<string> = hostileText.filter((text) => text.trim() !== '');

/** Tags that screens render themselves (the rest never appear, whatever the text). */
const SCREEN_TAGS = new Set([
  'html',
  'head',
  'body',
  'div',
  'span',
  'p',
  'a',
  'button',
  'input',
  'textarea',
  'select',
  'option',
  'label',
  'form',
  'fieldset',
  'legend',
  'section',
  'header',
  'footer',
  'nav',
  'main',
  'aside',
  'address',
  'article',
  'dialog',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
  'caption',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'time',
  'dl',
  'dt',
  'dd',
  'strong',
  'em',
  'mark',
  'code',
  'br',
]);

/** Attributes that carry a URL the browser may follow or load. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'poster',
  'cite',
  'data',
  'background',
  'ping',
  'xlink:href',
]);

/** Attributes no screen sets, each a way for text to act. */
const FORBIDDEN_ATTRIBUTES = new Set(['srcdoc', 'style', 'contenteditable', 'autofocus']);

export interface InertOptions {
  /** Tags the screen renders itself beyond the usual ones (`img`, `iframe`, `svg`…). */
  tags?: readonly string[];
  /** URL schemes allowed besides http(s) and the app's own paths (`mailto:`, `tel:`). */
  schemes?: readonly string[];
}

/**
 * True for a URL that is absolute http(s) (or one of `schemes`), or resolves to a path on this
 * app's origin. Resolved as the browser resolves it, so `/\host`, `//host` and tab tricks count
 * as leaving.
 */
export function isAllowedUrl(value: string, schemes: readonly string[] = []): boolean {
  const base = window.location.href;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return false;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    // A relative value must stay on this origin; an absolute one may go anywhere on the web.
    const absolute = /^[a-z][a-z\d+.-]*:/i.test(value.trim());
    return absolute || url.origin === new URL(base).origin;
  }
  return schemes.includes(url.protocol);
}

/**
 * Checks that nothing in the document came from text: every element is one screens render,
 * no attribute is an event handler or a way to run code, and every URL is allowed.
 */
export function expectInert(options: InertOptions = {}, root: Element = document.body): void {
  const tags = new Set([...SCREEN_TAGS, ...(options.tags ?? [])]);
  // Plain checks, one assertion at the end: a screen has hundreds of attributes.
  const problems: string[] = [];
  for (const element of [root, ...root.querySelectorAll('*')]) {
    const tag = element.localName;
    if (!tags.has(tag)) problems.push(`an unexpected <${tag}>: ${element.outerHTML.slice(0, 200)}`);
    for (const { name, value } of element.attributes) {
      const where = `<${tag} ${name}="${value.slice(0, 120)}">`;
      if (/^on/i.test(name)) problems.push(`an event handler attribute: ${where}`);
      if (FORBIDDEN_ATTRIBUTES.has(name.toLowerCase()))
        problems.push(`a forbidden attribute: ${where}`);
      // Plain names only (SVG's are camel-cased: viewBox): no ':' or other odd characters.
      if (!/^[a-z][a-z0-9-]*$/i.test(name)) problems.push(`an odd attribute name: ${where}`);
      if (URL_ATTRIBUTES.has(name.toLowerCase()) && !isAllowedUrl(value, options.schemes))
        problems.push(`a URL that leaves the app: ${where}`);
    }
  }
  expect(problems).toEqual([]);
}

/** Checks that each text shows in the document exactly as given. */
export function expectShown(texts: readonly string[], root: Element = document.body): void {
  const shown = root.textContent ?? '';
  const missing = texts.filter((text) => !shown.includes(text));
  expect(
    missing.map((text) => `not shown as given: ${JSON.stringify(text.slice(0, 200))}`),
  ).toEqual([]);
}

/**
 * How many runs a rendering property makes unless it says otherwise: a screen's render is slow
 * beside a pure function's call, so a few runs cover the fixed cases and some random text.
 */
export const RENDER_RUNS = 12;

/**
 * Runs a rendering property: `fc.assert` with the tests' seed, unmounting what each run rendered
 * (Testing Library only cleans up between tests, not between runs).
 */
export async function assertRenders<T>(
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => void | Promise<void>,
  numRuns: number = RENDER_RUNS,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      try {
        await check(value);
      } finally {
        cleanup();
      }
    }),
    { numRuns, seed: RENDER_SEED },
  );
}

/** A fixed seed, so a failure reproduces; `PROPERTY_SEED` tries another. */
const RENDER_SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);
