import fc from 'fast-check';

/** A JSON Schema, in the subset `z.toJSONSchema` writes (2020-12). */
export type JsonSchema = { [keyword: string]: unknown };

/** How `arbitraryFor` shapes its values. */
export interface ArbitraryOptions {
  /**
   * Values for properties by name, where the schema cannot say enough: a zod pipe (`email`, a
   * URL) shows only its input type, a plain string, so a random one never passes.
   */
  hints?: Record<string, fc.Arbitrary<unknown>>;
  /** Now and then replace a value with a hostile one, drop a required property or add extras. */
  corrupt?: boolean;
}

/** Strings that have broken servers: NUL, lone surrogates, right-to-left marks, SQL, paths, huge. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\u202Eevil',
    '\uFEFF',
    '𝕏𝕐ℤ 🤷🏽‍♀️ ﷽',
    "' OR 1=1 --",
    'Robert"); DROP TABLE users;--',
    '%00',
    '%',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '${7*7}',
    'NaN',
    '-1',
    '1e309',
    'null',
    'true',
    '__proto__',
    '\r\n\t',
    '00000000-0000-0000-0000-000000000000',
    'RES-99999999999999999999999',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(1_000, 70_000).map((length) => 'é'.repeat(length)),
);

/** Any JSON value that a careless handler may not expect. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e-308),
  hostileString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 3 }),
  fc.dictionary(hostileString, fc.oneof(fc.integer(), hostileString), { maxKeys: 3 }),
  // Deeply nested: a recursive walker must not overflow.
  fc.constantFrom(200, 2_000).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth))),
);

/** Keys an object should not have. */
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'toString', 'a'.repeat(5_000)),
  fc.string({ maxLength: 12 }),
);

const weighted = <T>(valid: fc.Arbitrary<T>, corrupt: boolean): fc.Arbitrary<unknown> =>
  corrupt
    ? fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: hostileValue })
    : valid;

/** Characters a database or a parser may refuse inside otherwise valid text. */
const TAINT = fc.oneof(
  // NUL first: PostgreSQL text cannot hold it at all.
  { weight: 4, arbitrary: fc.constant('\u0000') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\uD800', '\uFFFF', '\u202E', '\u0007', '%00', "'", '\\'),
  },
);

/** A valid-shaped string with one odd character slipped in: it passes length and enum-free checks. */
export const tainted = (valid: fc.Arbitrary<string>) =>
  fc.tuple(valid, TAINT, fc.nat()).map(([text, taint, at]) => {
    const index = text.length === 0 ? 0 : at % (text.length + 1);
    return text.slice(0, index) + taint + text.slice(index);
  });

/** Visible characters: ASCII, Latin letters, Hebrew (right to left) and CJK ideographs. */
const VISIBLE = '!-~\\u00C0-\\u024F\\u0590-\\u05FF\\u4E00-\\u4E2F';

/**
 * What a person types into a required, trimmed text field: `min` to `max` characters (at most 40
 * made), starting and ending with a visible character, no control characters; none of the
 * characters of `exclude`. Such a field's zod schema (`.trim().min(n)`) accepts it unchanged.
 */
export function enteredText(min: number, max: number, exclude = ''): fc.Arbitrary<string> {
  const visible = `[${VISIBLE}]`;
  const inner = `[ ${VISIBLE}]`;
  const top = Math.min(max, Math.max(min, 40));
  const source =
    top <= 1
      ? `^${visible}$`
      : min <= 1
        ? `^${visible}(?:${inner}{0,${top - 2}}${visible})?$`
        : `^${visible}${inner}{${min - 2},${top - 2}}${visible}$`;
  const text = fc.stringMatching(new RegExp(source));
  return exclude
    ? text.filter((value) => ![...exclude].some((char) => value.includes(char)))
    : text;
}

/** Sets a key even when it is `__proto__`, so `JSON.stringify` sends it as a plain key. */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl();
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern fast-check cannot invert: plain strings of the right length instead.
    }
  }
  const length = { minLength, maxLength: Math.min(maxLength, Math.max(minLength, 40)) };
  return fc.oneof(
    { weight: 4, arbitrary: fc.string(length) },
    { weight: 2, arbitrary: fc.string({ ...length, unit: 'grapheme' }) },
    // At the limit: where off-by-one and column widths fail.
    { weight: 1, arbitrary: fc.constant('w'.repeat(Math.min(maxLength, 100_000))) },
  );
}

function numberArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const integer = schema.type === 'integer';
  const min = [schema.minimum, schema.exclusiveMinimum].find((value) => typeof value === 'number');
  const max = [schema.maximum, schema.exclusiveMaximum].find((value) => typeof value === 'number');
  if (integer) {
    return fc.integer({
      min: Math.max(Number.MIN_SAFE_INTEGER, Math.ceil((min as number | undefined) ?? -1e6)),
      max: Math.min(Number.MAX_SAFE_INTEGER, Math.floor((max as number | undefined) ?? 1e6)),
    });
  }
  return fc.double({
    min: (min as number | undefined) ?? -1e9,
    max: (max as number | undefined) ?? 1e9,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/**
 * Values for a JSON Schema: valid-shaped ones, or (with `corrupt`) the same with hostile values,
 * missing and extra properties mixed in at any depth. Covers what `z.toJSONSchema` writes: the
 * primitive types, `enum`, `const`, objects, arrays, tuples (`prefixItems`),
 * `anyOf`/`oneOf`/`allOf` and `$ref` to `$defs`.
 */
export function arbitraryFor(
  schema: JsonSchema,
  options: ArbitraryOptions = {},
  root: JsonSchema = schema,
  name?: string,
): fc.Arbitrary<unknown> {
  const corrupt = options.corrupt ?? false;
  const hint = name === undefined ? undefined : options.hints?.[name];
  if (hint) return weighted(hint, corrupt);
  const recurse = (inner: JsonSchema, innerName?: string) =>
    arbitraryFor(inner, options, root, innerName);

  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as JsonSchema)?.[part], root);
    return recurse(target as JsonSchema, name);
  }
  if ('const' in schema) return weighted(fc.constant(schema.const), corrupt);
  if (Array.isArray(schema.enum)) return weighted(fc.constantFrom(...schema.enum), corrupt);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options_ = schema[keyword];
    if (Array.isArray(options_))
      return fc.oneof(...options_.map((option) => recurse(option as JsonSchema, name)));
  }
  if (Array.isArray(schema.allOf)) {
    // zod writes allOf for intersections of objects: merge their properties.
    const merged = (schema.allOf as JsonSchema[]).reduce<JsonSchema>(
      (all, part) => ({
        ...all,
        ...part,
        properties: { ...(all.properties as object), ...(part.properties as object) },
        required: [...((all.required as string[]) ?? []), ...((part.required as string[]) ?? [])],
      }),
      {},
    );
    return recurse(merged, name);
  }

  switch (schema.type) {
    case 'string': {
      const valid = stringArbitrary(schema);
      return corrupt
        ? fc.oneof(
            { weight: 4, arbitrary: valid },
            { weight: 3, arbitrary: tainted(valid) },
            { weight: 1, arbitrary: hostileValue },
          )
        : valid;
    }
    case 'integer':
    case 'number':
      return weighted(numberArbitrary(schema), corrupt);
    case 'boolean':
      return weighted(fc.boolean(), corrupt);
    case 'null':
      return weighted(fc.constant(null), corrupt);
    case 'array': {
      if (Array.isArray(schema.prefixItems)) {
        // A tuple (zod's `z.tuple`): each place its own schema; no rest unless `items` says.
        const places = (schema.prefixItems as JsonSchema[]).map((place) => recurse(place));
        const rest =
          schema.items && typeof schema.items === 'object'
            ? fc.array(recurse(schema.items as JsonSchema), { maxLength: 3 })
            : fc.constant([]);
        return weighted(
          fc.tuple(fc.tuple(...places), rest).map(([fixed, more]) => [...fixed, ...more]),
          corrupt,
        );
      }
      const items = schema.items ? recurse(schema.items as JsonSchema) : hostileValue;
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = typeof schema.maxItems === 'number' ? schema.maxItems : 10;
      return weighted(
        fc.array(items, { minLength, maxLength: Math.min(maxLength, Math.max(minLength, 5)) }),
        corrupt,
      );
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      const keys = Object.keys(properties);
      const record = fc.record(
        Object.fromEntries(keys.map((key) => [key, recurse(properties[key]!, key)])),
        { requiredKeys: required },
      );
      if (!corrupt) return record;
      const shaped = fc
        .tuple(
          record,
          fc.oneof(
            { weight: 3, arbitrary: fc.constant<string[]>([]) },
            ...(keys.length > 0
              ? [
                  {
                    weight: 1,
                    arbitrary: fc.subarray(keys, {
                      minLength: 1,
                      maxLength: Math.min(2, keys.length),
                    }),
                  },
                ]
              : []),
          ),
          fc.oneof(
            { weight: 3, arbitrary: fc.constant<[string, unknown][]>([]) },
            {
              weight: 1,
              arbitrary: fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 }),
            },
          ),
        )
        .map(([value, dropped, extra]) => {
          const result: Record<string, unknown> = {};
          for (const [key, item] of Object.entries(value as Record<string, unknown>))
            if (!dropped.includes(key)) setKey(result, key, item);
          for (const [key, item] of extra) setKey(result, key, item);
          return result;
        });
      return weighted(shaped, corrupt);
    }
    default:
      // `{}`: any value at all.
      return corrupt ? hostileValue : fc.jsonValue({ maxDepth: 2 });
  }
}
