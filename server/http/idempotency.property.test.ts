import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../test/json-schema-arbitrary.ts';
import { Refusal } from '../refusal.ts';
import { IDEMPOTENT_BODY_DEPTH_MAX, idempotencyKey, stableJson } from './idempotency.ts';

/*
 * What a retry is recognised by: the `Idempotency-Key` header (any value is taken or refused
 * with a 400, never thrown otherwise) and the body's stable JSON, which must not depend on the
 * order of its keys and must tell any two different bodies apart, or a retry of another request
 * would replay the wrong answer.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);

/** JSON bodies as they arrive parsed: any keys (`__proto__` too), any text, shallow or deep. */
const body = fc
  .jsonValue({ maxDepth: 4 })
  .chain((value) => fc.constant(JSON.parse(JSON.stringify(value)) as unknown));
const bodyWithOddKeys = fc
  .dictionary(
    fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', '')),
    fc.jsonValue({ maxDepth: 2 }),
    {
      maxKeys: 5,
    },
  )
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

/** The same value with every object's keys in another order. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffled(item, seed + 1));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const order = entries
    .map((_, index) => index)
    .sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
  const result: Record<string, unknown> = {};
  for (const index of order) {
    const [key, child] = entries[index]!;
    Object.defineProperty(result, key, {
      value: shuffled(child, seed + index),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return result;
}

describe('idempotency (fast-check)', () => {
  it('takes a header of 8 to 255 visible characters and refuses anything else with a 400', () => {
    const header = fc.oneof(
      fc.stringMatching(/^[\x21-\x7e]{8,255}$/),
      hostileString,
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.array(fc.oneof(hostileString, fc.uuid()), { maxLength: 3 }),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(header, (value) => {
        const first = Array.isArray(value) ? value[0] : value;
        try {
          expect(idempotencyKey(value)).toBe(first);
          if (first !== undefined) expect(first).toMatch(/^[\x21-\x7e]{8,255}$/);
        } catch (error) {
          expect(error).toBeInstanceOf(Refusal);
          expect((error as Refusal).statusCode).toBe(400);
          expect(
            first === undefined ? Array.isArray(value) : !/^[\x21-\x7e]{8,255}$/.test(first),
          ).toBe(true);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('writes the same JSON whatever the key order, and different JSON for different bodies', () => {
    fc.assert(
      fc.property(
        fc.oneof(body, bodyWithOddKeys),
        fc.oneof(body, bodyWithOddKeys),
        fc.nat(),
        (a, b, seed) => {
          expect(stableJson(shuffled(a, seed))).toBe(stableJson(a));
          // Stable JSON is JSON: it reads back as the same body.
          expect(JSON.parse(stableJson(a))).toEqual(a);
          expect(stableJson(a) === stableJson(b)).toBe(isDeepStrictEqual(a, b));
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('refuses a body nested deeper than it hashes with a 400, not a crash', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: IDEMPOTENT_BODY_DEPTH_MAX + 1, max: 20_000 }),
        fc.boolean(),
        (depth, arrays) => {
          let value: unknown = 1;
          for (let level = 0; level < depth; level += 1) value = arrays ? [value] : { a: value };
          expect(() => stableJson(value)).toThrow(Refusal);
        },
      ),
      { numRuns: 20, seed: SEED },
    );
  });
});
