import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { resourceRequestSchema } from '#contract/http/requests.ts';
import { reservationRequestSchema } from '#contract/http/reservations.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { enteredText, hostileString, hostileValue } from '../test/json-schema-arbitrary.ts';
import { parseInput, unstorableText } from './errors.ts';
import { Refusal } from '../refusal.ts';

/*
 * The input boundary's text rule (`unstorableText`, run by `parseInput` on every body and query
 * and by the chat on every payload): whatever the value, it finds exactly the strings and keys
 * that PostgreSQL cannot store (U+0000, a lone surrogate), names where, and never throws; and
 * `parseInput` answers anything with the parsed value or a 400 in the error shape, never more.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);

const NUL_MESSAGE = 'Text cannot contain the NUL character (U+0000).';
const SURROGATE_MESSAGE = 'Text must be valid Unicode (it holds a lone surrogate).';

/** Why a text cannot be stored, worked out code unit by code unit (not with the code's regex). */
function problem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
      else return SURROGATE_MESSAGE;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return SURROGATE_MESSAGE;
    }
  }
  return undefined;
}

/** Every string and key in a JSON-like value. */
function texts(value: unknown): string[] {
  const found: string[] = [];
  const pending = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') found.push(item);
    else if (item !== null && typeof item === 'object')
      for (const [key, child] of Object.entries(item)) {
        found.push(key);
        pending.push(child);
      }
  }
  return found;
}

/** Strings that are mostly fine, now and then holding NUL or half a surrogate pair. */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\u0000', '\uD83D', '\uDE00', '\uD83D\uDE00', 'é\u0301'),
  },
);

/** Non-empty keys without dots, so a reported path can be followed back to its value. */
const key = text.map((value) => value.replaceAll('.', '')).filter((value) => value !== '');

/** JSON-like trees of such strings and keys, `__proto__` keys included, as they arrive parsed. */
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('tree'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(key, fc.constant('__proto__')), tie('tree')), { maxLength: 4 })
      .map((entries) => {
        const object: Record<string, unknown> = {};
        for (const [name, child] of entries)
          Object.defineProperty(object, name, {
            value: child,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        return object;
      }),
  ),
}));

/** The value at a reported path, and the key it ends with. */
function follow(root: unknown, path: string): { value: unknown; key?: string } {
  if (path === '') return { value: root };
  const parts = path.split('.');
  let node = root;
  // Own properties only: `node['__proto__']` would be the prototype, not the key sent.
  for (const part of parts) node = Object.getOwnPropertyDescriptor(node, part)?.value;
  return { value: node, key: parts.at(-1) };
}

describe('unstorableText (fast-check)', () => {
  it('finds a bad text exactly when there is one, says where and why, never throws', () => {
    fc.assert(
      fc.property(tree, (value) => {
        const found = unstorableText(value);
        const bad = texts(value).filter((item) => problem(item) !== undefined);
        if (bad.length === 0) {
          expect(found).toBeUndefined();
          return;
        }
        expect(found).toBeDefined();
        const { value: at, key: last } = follow(value, found!.path);
        // The path leads to a bad string, or ends with a bad key; the message says which problem.
        const reasons = [
          typeof at === 'string' ? problem(at) : undefined,
          last === undefined ? undefined : problem(last),
        ];
        expect(reasons, found!.path).toContain(found!.message);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('never throws on anything, however deep', () => {
    // Built once: a body this deep would overflow a recursive walk.
    const deep = fc.constantFrom(
      ...[1_000, 20_000].map((depth) => {
        let value: unknown = 'a\u0000';
        for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { k: value };
        return value;
      }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          { weight: 4, arbitrary: fc.anything({ withNullPrototype: true, withBigInt: true }) },
          { weight: 4, arbitrary: hostileValue },
          { weight: 1, arbitrary: deep },
        ),
        (value) => {
          const found = unstorableText(value);
          if (found) expect([NUL_MESSAGE, SURROGATE_MESSAGE]).toContain(found.message);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});

describe('parseInput (fast-check)', () => {
  /** Runs `parseInput`, which must return or throw a 400 in the error shape. */
  function outcome<Schema extends z.ZodType>(schema: Schema, input: unknown) {
    try {
      return { ok: true as const, data: parseInput(schema, input) };
    } catch (error) {
      expect(error).toBeInstanceOf(Refusal);
      const refusal = error as Refusal;
      expect(refusal.statusCode).toBe(400);
      expect(refusal.message).toBe('Some fields are missing or invalid.');
      expect(refusal.errors?.length).toBeGreaterThan(0);
      for (const field of refusal.errors ?? []) {
        expect(typeof field.path).toBe('string');
        expect(field.message.trim()).not.toBe('');
      }
      return { ok: false as const, errors: refusal.errors! };
    }
  }

  const request = fc.record({
    student: enteredText(1, 120),
    title: enteredText(1, 300),
    description: enteredText(1, 2000),
    resourceType: fc.constantFrom('book', 'journal', 'article', 'courseMaterial', 'other'),
    institutionName: enteredText(1, 200),
  });

  it('answers anything with the parsed value or a 400 that names the fields', () => {
    fc.assert(
      fc.property(fc.oneof(tree, hostileValue, request), (input) => {
        const result = outcome(resourceRequestSchema, input);
        if (result.ok) expect(unstorableText(result.data)).toBeUndefined();
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('refuses a valid body with NUL or half a surrogate pair in one field, naming that field', () => {
    const fields = ['student', 'title', 'description', 'institutionName'] as const;
    fc.assert(
      fc.property(
        request,
        fc.constantFrom(...fields),
        fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00'),
        fc.nat(),
        (body, field, taint, at) => {
          // Inside the text: trimming cannot take it away.
          const value = body[field];
          const index = 1 + (at % value.length);
          const bad = { ...body, [field]: value.slice(0, index) + taint + value.slice(index) };
          const result = outcome(resourceRequestSchema, bad);
          expect(result).toEqual({
            ok: false,
            errors: [
              { path: field, message: taint === '\u0000' ? NUL_MESSAGE : SURROGATE_MESSAGE },
            ],
          });
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('refuses a bad key anywhere in a loose body, naming the path to it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('user', 'book', 'reservation'),
        key.filter((name) => problem(name) === undefined && name !== ''),
        fc.constantFrom('\u0000', '\uDFFF'),
        (where, name, taint) => {
          const bad = `${name}${taint}`;
          const body = {
            user: {},
            book: { id: 'book-1' },
            reservation: { date: '2026-11-24', timeSlot: RESERVATION_TIME_SLOTS[0] },
          } as Record<string, Record<string, unknown>>;
          // The schema keeps unknown keys of these objects (the spec's client sends extras).
          Object.defineProperty(body[where], bad, { value: 'x', enumerable: true });
          const result = outcome(reservationRequestSchema, body);
          expect(result).toEqual({
            ok: false,
            errors: [
              {
                path: `${where}.${bad}`,
                message: taint === '\u0000' ? NUL_MESSAGE : SURROGATE_MESSAGE,
              },
            ],
          });
        },
      ),
      { numRuns: RUNS / 3, seed: SEED },
    );
  });
});
