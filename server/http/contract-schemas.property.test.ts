import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DATABASE_BIGINT_MAX } from '#contract/limits.ts';
import { NOTICE_KINDS } from '#contract/http/notices.ts';
import { INSIGHTS_PERIODS } from '#contract/http/insights.ts';
import { SLOW_MODE_MAX, SLOW_MODE_MIN } from '#contract/socket/chat.ts';
import {
  arbitraryFor,
  enteredText,
  hostileString,
  hostileValue,
  type JsonSchema,
} from '../test/json-schema-arbitrary.ts';

/*
 * Every zod schema that contract/ exports (HTTP bodies, queries and answers, socket payloads),
 * found by importing the modules, so a schema added later is covered without editing this file:
 *
 * (a) `safeParse` of anything at all never throws: random values of every kind, deep nesting,
 *     hostile strings (NUL, lone surrogates, right-to-left marks, huge), `__proto__` and
 *     `constructor` keys; and nothing it does pollutes `Object.prototype`.
 * (b) Values made to fit the schema (from `z.toJSONSchema`, plus hints where JSON Schema cannot
 *     say enough) parse; parsing the result again gives the same value; and the result survives
 *     `JSON.stringify` and `JSON.parse` (what the wire does to it) and still parses to itself.
 *
 * Schemas whose rules JSON Schema cannot express get their own arbitraries in CUSTOM, each with
 * the reason (shown in the test's name); one that cannot be generated at all would go in
 * UNGENERATABLE with its reason. A test fails when a schema is in neither and its JSON Schema
 * cannot be written, so nothing is skipped silently.
 *
 * Reproduce a failure with the seed it prints: PROPERTY_SEED=<seed> npx vitest run <this file>;
 * PROPERTY_RUNS sets the cases per property.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);

const modules = import.meta.glob<Record<string, unknown>>(
  ['../../contract/**/*.ts', '!../../contract/**/*.test.ts'],
  { eager: true },
);

interface Entry {
  /** `contract/http/users.ts#emailSchema`. */
  id: string;
  name: string;
  schema: z.ZodType;
}

const SCHEMAS: Entry[] = Object.entries(modules)
  .flatMap(([file, exports]) =>
    Object.entries(exports)
      .filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType)
      .map(([name, schema]) => ({ id: `${file.replace(/^(\.\.\/)+/, '')}#${name}`, name, schema })),
  )
  .sort((a, b) => a.id.localeCompare(b.id));

/**
 * JSON Schema has no "trimmed": a string with a `minLength` (and no pattern or format) is entered
 * text, whose length zod counts after trimming. Such strings are made as entered text instead.
 */
function asEnteredText(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema)) return schema.map(asEnteredText) as unknown as JsonSchema;
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(schema))
    copy[key] =
      value !== null && typeof value === 'object' ? asEnteredText(value as JsonSchema) : value;
  if (
    copy.type === 'string' &&
    typeof copy.minLength === 'number' &&
    copy.minLength > 0 &&
    copy.pattern === undefined &&
    copy.format === undefined
  ) {
    const max = typeof copy.maxLength === 'number' ? copy.maxLength : 200;
    copy['x-entered'] = [copy.minLength, max];
  }
  return copy;
}

const email = fc
  .tuple(
    fc.stringMatching(
      /^[a-z0-9]{1,10}(\.[a-z0-9_+-]{1,8})?@[a-z0-9]{1,10}(-[a-z0-9]{1,5})?\.[a-z]{2,6}$/,
    ),
    fc.constantFrom('', ' ', '\t'),
    fc.boolean(),
  )
  // Surrounding space and capitals: the schema trims and lower-cases them away.
  .map(([address, pad, upper]) => `${pad}${upper ? address.toUpperCase() : address}${pad}`);

const phone = fc.stringMatching(/^\+?[0-9][0-9 ().-]{3,27}[0-9]$/);

const isoDate = fc
  .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/** Room names: entered text, never '.' or '..' (no address could hold them). */
const roomName = enteredText(1, 60).filter((name) => name !== '.' && name !== '..');

/**
 * Values by property name where the schema alone cannot make a valid one: pipes into `z.email()`
 * and `z.url()` show only their input (a plain string), and refinements show nothing.
 */
const HINTS: Record<string, fc.Arbitrary<unknown>> = {
  email,
  phoneNumber: phone,
  driveLink: fc.webUrl(),
  url: fc.webUrl(),
  coverUrl: fc.webUrl(),
  publishedDate: isoDate,
  date: isoDate,
  // A path inside the app; fast-check cannot invert the schema's look-ahead.
  href: fc.stringMatching(
    /^\/([a-z0-9-]{1,20}(\/[a-z0-9-]{1,10})?)?(\?[a-z]{1,5}=[a-z0-9%]{1,8})?$/,
  ),
  roomName,
  room: roomName,
  message: enteredText(1, 2000),
  prompt: enteredText(1, 2000),
  username: enteredText(2, 30, '<>'),
  // Message ids: digits, refined to what a `bigint` holds, which no pattern says.
  before: fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }).map(String),
  after: fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }).map(String),
  replyTo: fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }).map(String),
  // Refined: off, or a span of seconds.
  slowModeSeconds: fc.oneof(fc.constant(0), fc.integer({ min: SLOW_MODE_MIN, max: SLOW_MODE_MAX })),
  // Refined: one of the periods a librarian may choose.
  period: fc.constantFrom(...INSIGHTS_PERIODS),
};

/** Each notice kind on or off by e-mail: every kind, or only some when `all` is false. */
function noticeSwitches(all: boolean): fc.Arbitrary<Record<string, boolean | undefined>> {
  const kinds = Object.fromEntries(NOTICE_KINDS.map((kind) => [kind, fc.boolean()]));
  return fc.record(kinds, all ? {} : { requiredKeys: [] });
}

/** Schemas with a rule that no property hint can satisfy, each with its own arbitrary and why. */
const CUSTOM: Record<
  string,
  { reason: string; arbitrary: (base: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown> }
> = {
  // Decision 043: a message id refined to what a `bigint` holds, and an edit's text not blank.
  editMessageSchema: {
    reason: 'refined: a message id within bigint, and text that is not blank',
    arbitrary: (base) =>
      fc
        .tuple(base, fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }), enteredText(1, 2000))
        .map(([value, id, text]) => ({ ...(value as object), messageId: String(id), text })),
  },
  deleteMessageSchema: {
    reason: 'refined: a message id within bigint',
    arbitrary: (base) =>
      fc
        .tuple(base, fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }))
        .map(([value, id]) => ({ ...(value as object), messageId: String(id) })),
  },
  reactMessageSchema: {
    reason: 'refined: a message id within bigint',
    arbitrary: (base) =>
      fc
        .tuple(base, fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }))
        .map(([value, id]) => ({ ...(value as object), messageId: String(id) })),
  },
  // Decision 042: the message read up to, an id refined to what a `bigint` holds.
  markReadSchema: {
    reason: 'refined: a message id within bigint',
    arbitrary: (base) =>
      fc
        .tuple(base, fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }))
        .map(([value, id]) => ({ ...(value as object), messageId: String(id) })),
  },
  emailSchema: {
    reason: 'a trimmed, lower-cased pipe into z.email(): its JSON Schema is any short string',
    arbitrary: () => email,
  },
  phoneSchema: {
    reason: 'the pattern applies after trimming, which JSON Schema cannot say',
    arbitrary: () => phone,
  },
  searchQuerySchema: {
    reason: 'refined: a search needs words, a filter or featured=true; a year range in order',
    arbitrary: (base) =>
      fc
        .tuple(
          base,
          fc.oneof(
            fc.constant({ featured: true }),
            enteredText(1, 200).map((q) => ({ q })),
          ),
        )
        .map(([value, need]) => {
          const query = { ...(value as object), ...need } as {
            yearFrom?: number;
            yearTo?: number;
          };
          return query.yearFrom !== undefined &&
            query.yearTo !== undefined &&
            query.yearFrom > query.yearTo
            ? { ...query, yearFrom: query.yearTo, yearTo: query.yearFrom }
            : query;
        }),
  },
  registerRequestSchema: {
    reason: 'refined: a form sign-up (the default method) needs a password',
    arbitrary: (base) =>
      fc.tuple(base, enteredText(8, 128)).map(([value, password]) => {
        const body = value as { signupMethod?: string; password?: string };
        return (body.signupMethod ?? 'form') === 'form' && body.password === undefined
          ? { ...body, password }
          : body;
      }),
  },
  highlightCreateSchema: {
    reason: 'refined: a highlight ends after it starts',
    arbitrary: (base) =>
      base.map((value) => {
        const body = value as { start: number; end: number };
        const end = Math.max(body.end, 1);
        return { ...body, start: Math.max(0, Math.min(body.start, end - 1)), end };
      }),
  },
  moderationActionRequestSchema: {
    reason: 'refined: a mute or a removal says how long, a mute where',
    arbitrary: (base) =>
      fc
        .tuple(base, fc.constantFrom('10m', '1h', '1d'), fc.constantFrom('room', 'everywhere'))
        .map(([value, duration, scope]) => {
          const body = value as { action: string; duration?: string; scope?: string };
          if (body.action !== 'mute' && body.action !== 'remove') return body;
          return {
            ...body,
            duration: body.duration ?? duration,
            ...(body.action === 'mute' ? { scope: body.scope ?? scope } : {}),
          };
        }),
  },
  markNoticesReadSchema: {
    reason: 'refined: name some notices, or all of them',
    arbitrary: (base) =>
      base.map((value) => {
        const body = value as { ids?: string[]; all?: boolean };
        return body.all === true || (body.ids?.length ?? 0) > 0 ? body : { ...body, all: true };
      }),
  },
  noticePreferencesSchema: {
    reason: 'its `email` is a record of every notice kind, not an address (the `email` hint)',
    arbitrary: () => fc.record({ email: noticeSwitches(true) }),
  },
  noticePreferencesUpdateSchema: {
    reason: 'its `email` is a record of some notice kinds, not an address (the `email` hint)',
    arbitrary: () => fc.record({ email: noticeSwitches(false) }),
  },
  requestStatusChangeSchema: {
    reason: 'refined: a rejection needs a reason',
    arbitrary: (base) =>
      fc.tuple(base, enteredText(1, 500)).map(([value, reason]) => {
        const change = value as { status: string; reason?: string };
        return change.status === 'rejected' && !change.reason?.trim()
          ? { ...change, reason }
          : change;
      }),
  },
};

/** Schemas no arbitrary can make valid values for, each with why (none today). */
const UNGENERATABLE: Record<string, string> = {};

/** The JSON Schema of a schema's input, or why there is none. */
function inputJsonSchema(schema: z.ZodType): JsonSchema | string {
  try {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
    return rest;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `arbitraryFor`, with `x-entered` strings made as entered text. */
function validArbitrary(
  schema: JsonSchema,
  root: JsonSchema = schema,
  name?: string,
): fc.Arbitrary<unknown> {
  // Hints name text and numbers: a list or an object of the same name (a reported message with
  // the messages `before` it) is made from its schema.
  const hint =
    name === undefined || schema.type === 'object' || schema.type === 'array'
      ? undefined
      : HINTS[name];
  if (hint) return hint;
  const entered = schema['x-entered'] as [number, number] | undefined;
  if (entered) return enteredText(...entered);
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as JsonSchema)?.[part], root);
    return validArbitrary(target as JsonSchema, root, name);
  }
  if (Array.isArray(schema.type))
    // `z.string().nullable()` is `{ type: ['string', 'null'] }`.
    return fc.oneof(
      ...(schema.type as string[]).map((type) => validArbitrary({ ...schema, type }, root, name)),
    );
  if (schema.type === 'object' && schema.properties) {
    const properties = schema.properties as Record<string, JsonSchema>;
    const required = (schema.required ?? []) as string[];
    return fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [
          key,
          validArbitrary(property, root, key),
        ]),
      ),
      { requiredKeys: required },
    );
  }
  if (schema.type === 'array' && schema.items) {
    const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const maxLength = typeof schema.maxItems === 'number' ? schema.maxItems : 10;
    return fc.array(validArbitrary(schema.items as JsonSchema, root), {
      minLength,
      maxLength: Math.min(maxLength, Math.max(minLength, 5)),
    });
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = schema[keyword];
    if (Array.isArray(options))
      return fc.oneof(...options.map((option) => validArbitrary(option as JsonSchema, root, name)));
  }
  return arbitraryFor(schema, { hints: HINTS }, root, name);
}

/** Keys an attacker would send. */
const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    '',
  ),
  fc.string({ maxLength: 8 }),
  hostileString,
);

/** JSON bodies that try to reach `Object.prototype` through `__proto__` and `constructor`. */
const POLLUTING_JSON = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"a":{"__proto__":{"polluted":"yes"}},"b":[{"__proto__":{"polluted":"yes"}}]}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}},"toString":"x","valueOf":1}',
  '[{"__proto__":{"polluted":"yes"}}]',
];

/** A polluting body merged into a valid-shaped one, so it reaches the fields' own parsers too. */
function pollutedVariant(value: unknown): fc.Arbitrary<unknown> {
  return fc.constantFrom(...POLLUTING_JSON).map((json) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return JSON.parse(json) as unknown;
    // Written as JSON text, so `__proto__` arrives as an own key, as it does from the wire.
    const evil = json.startsWith('{') ? json.slice(1, -1) : `"list":${json}`;
    const text = JSON.stringify(value);
    return JSON.parse(text === '{}' ? `{${evil}}` : `{${evil},${text.slice(1)}`) as unknown;
  });
}

/** A tree nested `depth` levels deep, objects and arrays in turn. */
const deepValue = fc.constantFrom(100, 5_000).map((depth) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
});

/** Anything at all: every kind of value, hostile strings and keys, deep nesting. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.anything({
      key: hostileKey,
      values: [
        hostileString,
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
      ],
      maxDepth: 3,
      maxKeys: 6,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withObjectString: true,
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withTypedArray: true,
      withSparseArray: true,
    }),
  },
  { weight: 2, arbitrary: hostileValue },
  { weight: 1, arbitrary: deepValue },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...POLLUTING_JSON).map((json) => JSON.parse(json) as unknown),
  },
);

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

/** Throws when anything has been added to (or replaced on) `Object.prototype`. */
function expectPrototypeUntouched() {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/** Every object in a parsed (JSON-born) value is a plain object or array: no borrowed prototype. */
function expectPlainObjects(value: unknown) {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null || typeof item !== 'object') continue;
    const prototype = Object.getPrototypeOf(item) as unknown;
    expect([Object.prototype, Array.prototype, null]).toContain(prototype);
    pending.push(...Object.values(item as object));
  }
}

const generated = SCHEMAS.map((entry) => {
  const custom = CUSTOM[entry.name];
  const json = inputJsonSchema(entry.schema);
  const how = custom ? ` (own arbitrary: ${custom.reason})` : '';
  if (entry.name in UNGENERATABLE || typeof json === 'string')
    return { ...entry, json, how, valid: undefined };
  const base = validArbitrary(asEnteredText(json));
  return { ...entry, json, how, valid: custom ? custom.arbitrary(base) : base };
});

afterEach(() => expectPrototypeUntouched());

describe('every contract schema (fast-check)', () => {
  it('finds the schemas of every contract module', () => {
    const files = new Set(SCHEMAS.map((entry) => entry.id.split('#')[0]));
    for (const file of [
      'contract/http/catalogue.ts',
      'contract/http/chatbot.ts',
      'contract/http/docs.ts',
      'contract/http/errors.ts',
      'contract/http/health.ts',
      'contract/http/library.ts',
      'contract/http/requests.ts',
      'contract/http/reservations.ts',
      'contract/http/users.ts',
      'contract/socket/chat.ts',
    ])
      expect(files, file).toContain(file);
    expect(SCHEMAS.length).toBeGreaterThan(70);
    // Names are unique across modules, so CUSTOM and UNGENERATABLE can go by name.
    expect(new Set(SCHEMAS.map((entry) => entry.name)).size).toBe(SCHEMAS.length);
  });

  it('lists only schemas that exist, and generates every schema not listed as ungeneratable', () => {
    const names = new Set(SCHEMAS.map((entry) => entry.name));
    for (const name of [...Object.keys(CUSTOM), ...Object.keys(UNGENERATABLE)])
      expect(names, name).toContain(name);
    const missing = generated
      .filter((entry) => entry.valid === undefined && !(entry.name in UNGENERATABLE))
      .map((entry) => `${entry.id}: ${String(entry.json)}`);
    expect(missing).toEqual([]);
  });

  describe.each(generated)('$id', ({ schema, valid, how }) => {
    it('never throws on anything, and pollutes nothing', () => {
      fc.assert(
        fc.property(
          valid
            ? fc.oneof(
                { weight: 3, arbitrary: anything },
                { weight: 1, arbitrary: valid.chain(pollutedVariant) },
              )
            : anything,
          (input) => {
            const result = schema.safeParse(input);
            expect(typeof result.success).toBe('boolean');
            if (!result.success) {
              // A refusal names its problems in words, which the API sends on.
              expect(result.error.issues.length).toBeGreaterThan(0);
              for (const issue of result.error.issues) expect(typeof issue.message).toBe('string');
            }
            expectPrototypeUntouched();
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
    });

    it('never throws on valid-shaped input with hostile values, missing and extra fields', () => {
      const json = inputJsonSchema(schema);
      if (typeof json === 'string') return;
      fc.assert(
        fc.property(arbitraryFor(json, { corrupt: true, hints: HINTS }), (input) => {
          expect(typeof schema.safeParse(input).success).toBe('boolean');
          expectPrototypeUntouched();
        }),
        { numRuns: RUNS, seed: SEED },
      );
    });

    it.skipIf(valid === undefined)(
      `parses values made to fit it, again to the same value, and after a JSON round trip${how}`,
      () => {
        fc.assert(
          fc.property(valid!, (input) => {
            const first = schema.safeParse(input);
            expect(first.error?.issues ?? [], JSON.stringify(input)).toEqual([]);
            const output = first.data;
            // Idempotent: what the parser made is valid input that parses to itself.
            expect(schema.parse(output)).toEqual(output);
            // The wire: JSON loses nothing the schema cares about.
            const wire = JSON.parse(JSON.stringify(output) ?? 'null') as unknown;
            expect(schema.parse(wire)).toEqual(wire);
            expectPlainObjects(output);
          }),
          { numRuns: RUNS, seed: SEED },
        );
      },
    );
  });

  it('keeps JSON `__proto__` keys out of the parsed values of loose schemas', () => {
    for (const { schema, valid } of generated) {
      if (!valid) continue;
      fc.assert(
        fc.property(valid.chain(pollutedVariant), (input) => {
          const result = schema.safeParse(input);
          if (result.success) {
            expectPlainObjects(result.data);
            expect((result.data as Record<string, unknown>)?.polluted).toBeUndefined();
          }
          expectPrototypeUntouched();
        }),
        { numRuns: 10, seed: SEED },
      );
    }
  });
});
