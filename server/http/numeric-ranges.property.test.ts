import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DATABASE_BIGINT_MAX, DATABASE_INTEGER_MAX } from '#contract/limits.ts';
import { isMessageId } from '#contract/socket/chat.ts';
import { PAYLOAD_SCHEMAS } from '../realtime/chat/payload.ts';
import { createTestApp, type TestApp } from '../test/app.ts';

/*
 * Numbers too big for the database (issue 19, finding 5): every numeric field of every input the
 * server parses, the declared HTTP routes' path parameters, queries, headers and bodies and every
 * socket event's payload, is fed the edges of the database's ranges and beyond (0, -1, the largest
 * `integer` and `bigint` and one more, 1e20, hundreds of digits, fractions, NaN, Infinity, hex,
 * blanks, other scripts' digits). Each is refused with an issue, or parses to a value the database
 * holds: a whole number within `integer`, or a message id from 1 to the largest `bigint`.
 *
 * Fields are found by walking the schemas, so one added later is covered without editing this
 * file: a number (coerced or not), or a string whose pattern takes digits only (a message id). A
 * date such as `^\d{4}-\d{2}-\d{2}$` or a phone number is not one. better-auth's endpoints are
 * left out: better-auth parses their input itself.
 *
 * Reproduce a failure with the seed it prints: PROPERTY_SEED=<seed> npx vitest run <this file>.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_127);

const INTEGER_MIN = -DATABASE_INTEGER_MAX - 1;

/** A numeric field: where it is, its schema (with its wrappers), and the range it must keep to. */
interface NumericField {
  where: string;
  schema: z.ZodType;
  kind: 'integer' | 'messageId';
}

/** zod's own description of a schema (zod 4), as far as this walk reads it. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
}
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'catch',
  'readonly',
  'nonoptional',
]);

/** The schema under wrappers and pipes that reads the value as it arrives. */
function base(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return base(def.innerType);
  // A preprocess is a pipe from a transform: the value is read by what follows it.
  if (def.type === 'pipe' && def.in && def.out)
    return base(defOf(def.in).type === 'transform' ? def.out : def.in);
  return schema;
}

/** True when every pattern of a string schema takes digits and only digits. */
function digitsOnly(schema: z.ZodType): boolean {
  const checks = (defOf(schema) as { checks?: { _zod: { def: { pattern?: unknown } } }[] }).checks;
  const patterns = (checks ?? [])
    .map((check) => check._zod.def.pattern)
    .filter((pattern): pattern is RegExp => pattern instanceof RegExp);
  if (patterns.length === 0) return false;
  return patterns.every(
    (pattern) =>
      pattern.test('12345') &&
      ['123-45', '123 45', '+12345', '12345a', '1.5', 'abcde'].every((text) => !pattern.test(text)),
  );
}

/** The kind of a numeric field, or undefined for any other. */
function numericKind(schema: z.ZodType): NumericField['kind'] | undefined {
  const leaf = base(schema);
  const type = defOf(leaf).type;
  if (type === 'number' || type === 'bigint') return 'integer';
  if (type === 'string' && digitsOnly(leaf)) return 'messageId';
  return undefined;
}

/** Every numeric field in `schema`, at any depth. */
function numericFields(schema: z.ZodType, where: string): NumericField[] {
  const kind = numericKind(schema);
  if (kind) return [{ where, schema, kind }];
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return numericFields(def.innerType, where);
  if (def.type === 'pipe')
    return [def.in, def.out].flatMap((part) => (part ? numericFields(part, where) : []));
  if (def.type === 'object' && def.shape)
    return Object.entries(def.shape).flatMap(([key, field]) =>
      numericFields(field, `${where}.${key}`),
    );
  if (def.type === 'array' && def.element) return numericFields(def.element, `${where}[]`);
  if (def.type === 'union' && def.options)
    return def.options.flatMap((option) => numericFields(option, where));
  if (def.type === 'intersection')
    return [def.left, def.right].flatMap((part) => (part ? numericFields(part, where) : []));
  return [];
}

/** The edges, as a JSON body carries them (numbers) and as a query or a path does (text). */
const EDGES: unknown[] = [
  0,
  -0,
  -1,
  1,
  DATABASE_INTEGER_MAX,
  DATABASE_INTEGER_MAX + 1,
  INTEGER_MIN,
  INTEGER_MIN - 1,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  Number(DATABASE_BIGINT_MAX),
  1e20,
  -1e20,
  Number.MAX_VALUE,
  0.5,
  1.5,
  -0.5,
  1e-7,
  NaN,
  Infinity,
  -Infinity,
  '0',
  '-0',
  '-1',
  '1',
  String(DATABASE_INTEGER_MAX),
  String(DATABASE_INTEGER_MAX + 1),
  String(INTEGER_MIN),
  String(INTEGER_MIN - 1),
  String(DATABASE_BIGINT_MAX),
  String(DATABASE_BIGINT_MAX + 1n),
  String(-DATABASE_BIGINT_MAX - 2n),
  '99999999999999999999',
  '18446744073709551616',
  '1e20',
  '1E20',
  '1e400',
  '-1e400',
  '9'.repeat(400),
  '0'.repeat(400),
  `${'0'.repeat(30)}1`,
  '1.5',
  '1.0',
  '.5',
  '5.',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  '+1',
  '0x7fffffff',
  '0xffffffffffffffffff',
  '0b1',
  '0o7',
  ' 1 ',
  '',
  '   ',
  '1_000',
  '1,000',
  '١٢٣',
  '１２３',
  '12abc',
  'null',
  'true',
  '\u00001',
];

/** More of the same, made at random: any numbers, long digit runs, numbers written as text. */
const generated: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.stringMatching(/^-?\d{1,400}$/),
  fc.double().map(String),
  fc.integer().map(String),
  fc.string({ maxLength: 30 }),
);

/** The field's value is refused with an issue, or parsed into what the database holds. */
function expectRefusedOrInRange(field: NumericField, value: unknown) {
  const result = field.schema.safeParse(value);
  const label = `${field.where} = ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`;
  if (!result.success) {
    expect(result.error.issues.length, label).toBeGreaterThan(0);
    for (const issue of result.error.issues) expect(issue.message.trim(), label).not.toBe('');
    return;
  }
  const parsed: unknown = result.data;
  // Not given: nothing reaches the database.
  if (parsed === undefined || parsed === null) return;
  if (field.kind === 'integer') {
    expect(Number.isInteger(parsed), label).toBe(true);
    expect(parsed as number, label).toBeGreaterThanOrEqual(INTEGER_MIN);
    expect(parsed as number, label).toBeLessThanOrEqual(DATABASE_INTEGER_MAX);
  } else {
    expect(typeof parsed === 'string' && isMessageId(parsed), label).toBe(true);
  }
}

describe('numbers the server parses, at the edges of the database (fast-check)', () => {
  let testApp: TestApp;
  let fields: NumericField[];

  beforeAll(async () => {
    testApp = await createTestApp('pglite');
    const http = testApp.app.declaredRoutes.flatMap(({ route, declaration }) => {
      if (declaration.betterAuth) return [];
      return (['params', 'query', 'headers', 'body'] as const).flatMap((part) => {
        const schema = declaration[part];
        return schema ? numericFields(schema, `${route} ${part}`) : [];
      });
    });
    const socket = Object.entries(PAYLOAD_SCHEMAS).flatMap(([event, schema]) =>
      numericFields(schema, `socket ${event}`),
    );
    // A route serving GET and HEAD, or two methods, reads the same schema: once is enough.
    const seen = new Set<z.ZodType>();
    fields = [...http, ...socket].filter((field) => {
      if (seen.has(field.schema)) return false;
      seen.add(field.schema);
      return true;
    });
  });
  afterAll(async () => testApp.close());

  it('finds the numeric fields of the HTTP routes and the socket events', () => {
    const found = fields.map((field) => `${field.where} (${field.kind})`);
    for (const expected of [
      'GET /api/search query.page (integer)',
      'GET /api/search query.pageSize (integer)',
      'GET /api/search query.year (integer)',
      'GET /api/items/:id/pages query.page (integer)',
      'socket join_room.after (messageId)',
      'socket load_history.before (messageId)',
    ])
      expect(found).toContain(expected);
  });

  it('refuses each edge with an issue, or parses it into the database range', () => {
    for (const field of fields) for (const value of EDGES) expectRefusedOrInRange(field, value);
  });

  it('refuses random numbers and digits with an issue, or parses them into the range', () => {
    for (const field of fields) {
      fc.assert(
        fc.property(generated, (value) => expectRefusedOrInRange(field, value)),
        { numRuns: RUNS, seed: SEED },
      );
    }
  });

  it('says what the range is when a message id or a page is too big', () => {
    const tooBig = String(DATABASE_BIGINT_MAX + 1n);
    for (const field of fields.filter((each) => each.kind === 'messageId')) {
      const result = field.schema.safeParse(tooBig);
      expect(result.success, field.where).toBe(false);
      expect(result.error?.issues[0]?.message, field.where).toContain(String(DATABASE_BIGINT_MAX));
    }
    const page = fields.find((field) => field.where === 'GET /api/items/:id/pages query.page')!;
    expect(page.schema.safeParse(String(DATABASE_INTEGER_MAX + 1)).error?.issues[0]?.message).toBe(
      `page is at most ${DATABASE_INTEGER_MAX}`,
    );
  });
});
