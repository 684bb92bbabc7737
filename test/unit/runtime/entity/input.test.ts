/**
 * Write input (POST/PUT `data`): sanitizing, Strapi v4's validation messages and the
 * conversion to Prisma values. Messages are Strapi's (yup 0.32 plus Strapi's overrides)
 * character for character, except where a test says "not Strapi".
 */
import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import type { FieldMeta } from '../../../../templates/runtime/meta.js';
import {
  MAX_JSON_DEPTH,
  MAX_STRING_LENGTH,
  assertDataPayload,
  pickNonScalarInput,
  prepareWriteData,
} from '../../../../templates/runtime/entity/input.js';
import { NOW, contentType, create, fakeHash, messagesOf, rejection, scalar, single, update } from './fixtures.js';

describe('assertDataPayload', () => {
  it('returns the object under `data`', () => {
    expect(assertDataPayload({ data: { title: 'x' } })).toEqual({ title: 'x' });
  });

  it.each([
    ['no body', undefined],
    ['no data key', { title: 'x' }],
    ['data null', { data: null }],
    ['data a string', { data: 'x' }],
    ['data an array', { data: [{ title: 'x' }] }],
    ['a bare array body', [{ data: {} }]],
  ])('rejects %s with 400 ValidationError', (_label, body) => {
    let thrown: unknown;
    try {
      assertDataPayload(body);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    const err = thrown as ValidationError;
    expect(err.status).toBe(400);
    expect(err.message).toBe('Missing "data" payload in the request body');
    expect(err.details).toEqual({});
  });
});

describe('prepareWriteData: the data object', () => {
  it('rejects a non-object data with the missing-payload message', async () => {
    const err = await rejection(create(single('title', 'string'), ['x']));
    expect(err.message).toBe('Missing "data" payload in the request body');
  });

  it('keys the output by prismaField', async () => {
    const meta = contentType([scalar('title', 'string', { prismaField: 'headline' })]);
    expect(await create(meta, { title: 'x' })).toEqual({ headline: 'x' });
  });
});

describe('sanitizing (Strapi sanitizeInput)', () => {
  const meta = contentType([
    scalar('title', 'string'),
    scalar('secret', 'string', { private: true }),
    scalar('computed', 'string', { writable: false }),
    { kind: 'relation', name: 'author', relation: 'manyToOne', target: 'api::author.author', toMany: false },
    { kind: 'media', name: 'cover', multiple: false },
    { kind: 'component', name: 'seo', component: 'shared.seo', repeatable: false, column: 'seo' },
    { kind: 'dynamiczone', name: 'blocks', components: ['shared.quote'], column: 'blocks' },
  ]);

  it('silently drops id, timestamps, creator fields, writable:false fields and unknown keys', async () => {
    const result = await create(meta, {
      id: 7,
      title: 'Hello',
      createdAt: '2020-01-01T00:00:00.000Z',
      updatedAt: '2020-01-01T00:00:00.000Z',
      createdBy: 1,
      updatedBy: 1,
      computed: 'nope',
      whatever: 'ignored',
      constructor: 'ignored',
    });
    expect(result).toEqual({ title: 'Hello' });
  });

  it('accepts and stores private fields', async () => {
    expect(await create(meta, { secret: 's3cret' })).toEqual({ secret: 's3cret' });
  });

  it('leaves relations, media, components and dynamic zones out of the scalar output', async () => {
    const result = await create(meta, { title: 'x', author: 1, cover: 2, seo: { a: 1 }, blocks: [] });
    expect(result).toEqual({ title: 'x' });
  });

  it('pickNonScalarInput returns those raw values by field name, skipping absent ones', () => {
    const data = { title: 'x', author: { connect: [1] }, seo: { metaTitle: 't' }, cover: undefined, createdBy: 3 };
    expect(pickNonScalarInput(meta, data)).toEqual({ author: { connect: [1] }, seo: { metaTitle: 't' } });
  });
});

describe('partial updates, null and defaults', () => {
  const meta = contentType([
    scalar('title', 'string'),
    scalar('views', 'integer', { default: 0 }),
    scalar('kind', 'enumeration', { enum: ['news', 'blog'], default: 'news' }),
    scalar('day', 'date', { default: '2020-01-02' }),
    scalar('extra', 'json', { default: { tags: ['a'] } }),
  ]);

  it('update writes only the keys sent', async () => {
    expect(await update(meta, { title: 'New' })).toEqual({ title: 'New' });
    expect(await update(meta, {})).toEqual({});
  });

  it('undefined values count as absent', async () => {
    expect(await update(meta, { title: undefined })).toEqual({});
  });

  it('null clears an optional field', async () => {
    expect(await update(meta, { title: null, views: null, kind: null, day: null })).toEqual({
      title: null,
      views: null,
      kind: null,
      day: null,
    });
  });

  it('json null becomes options.jsonNull (Prisma.DbNull in the server)', async () => {
    const dbNull = Symbol('DbNull');
    expect(await update(meta, { extra: null }, { jsonNull: dbNull })).toEqual({ extra: dbNull });
    expect(await update(meta, { extra: null })).toEqual({ extra: null });
  });

  it('create fills absent fields from their defaults, converted like input', async () => {
    expect(await create(meta, { title: 'x' })).toEqual({
      title: 'x',
      views: 0,
      kind: 'news',
      day: new Date('2020-01-02T00:00:00.000Z'),
      extra: { tags: ['a'] },
    });
  });

  it('defaults are copies: changing the output does not change the meta', async () => {
    const first = await create(meta, {});
    (first.extra as { tags: string[] }).tags.push('b');
    expect((await create(meta, {})).extra).toEqual({ tags: ['a'] });
  });

  it('an explicit null is kept over the default', async () => {
    expect((await create(meta, { views: null })).views).toBeNull();
  });

  it('update never applies defaults', async () => {
    expect(await update(meta, { title: 'x' })).toEqual({ title: 'x' });
  });
});

describe('required', () => {
  const meta = contentType([
    scalar('title', 'string', { required: true }),
    scalar('count', 'integer', { required: true, default: 1 }),
    scalar('payload', 'json', { required: true, default: {} }),
  ]);

  it('create: absent → "<field> must be defined."', async () => {
    expect(await messagesOf(create(meta, {}))).toEqual(['title must be defined.']);
  });

  it('create: absent is fine when the field has a default', async () => {
    expect(await create(meta, { title: 'x' })).toEqual({ title: 'x', count: 1, payload: {} });
  });

  it('update: absent is fine', async () => {
    expect(await update(meta, {})).toEqual({});
  });

  it('null on a required typed field fails yup\'s type check (Strapi only marks optional fields nullable)', async () => {
    expect(await messagesOf(create(meta, { title: null }))).toEqual([
      'title must be a `string` type, but the final value was: `null`.',
    ]);
    expect(await messagesOf(update(meta, { title: null }))).toEqual([
      'title must be a `string` type, but the final value was: `null`.',
    ]);
    // yup casts null to NaN for numbers before the type check.
    expect(await messagesOf(update(meta, { count: null }))).toEqual([
      'count must be a `number` type, but the final value was: `NaN`.',
    ]);
  });

  it('null on a required json field: "must be defined." on create, "cannot be null." on update', async () => {
    expect(await messagesOf(create(meta, { title: 'x', payload: null }))).toEqual(['payload must be defined.']);
    expect(await messagesOf(update(meta, { payload: null }))).toEqual(['payload cannot be null.']);
  });
});

describe('draft & publish', () => {
  const meta = contentType(
    [
      scalar('title', 'string', { required: true, minLength: 5, maxLength: 10 }),
      scalar('body', 'json', { required: true }),
    ],
    { draftAndPublish: true },
  );

  it('create without publishedAt publishes: publishedAt = now', async () => {
    const result = await create(meta, { title: 'Hello', body: {} });
    expect(result.publishedAt).toEqual(NOW);
  });

  it('create with an explicit publishedAt stores it', async () => {
    const result = await create(meta, { title: 'Hello', body: {}, publishedAt: '2021-01-01T00:00:00.000Z' });
    expect(result.publishedAt).toEqual(new Date('2021-01-01T00:00:00.000Z'));
  });

  it('create with publishedAt: null is a draft that skips required and minLength', async () => {
    expect(await create(meta, { publishedAt: null })).toEqual({ publishedAt: null });
    expect(await create(meta, { publishedAt: null, title: 'Hi', body: null })).toEqual({
      publishedAt: null,
      title: 'Hi',
      body: null,
    });
  });

  it('drafts still enforce maxLength and types', async () => {
    expect(await messagesOf(create(meta, { publishedAt: null, title: 'Far too long title' }))).toEqual([
      'title must be at most 10 characters',
    ]);
  });

  it('published entries enforce required and minLength', async () => {
    expect(await messagesOf(create(meta, { title: 'Hi' }))).toEqual([
      'title must be at least 5 characters',
      'body must be defined.',
    ]);
  });

  it('update: the caller says whether the stored entry is a draft', async () => {
    expect(await messagesOf(update(meta, { title: 'Hi' }))).toEqual(['title must be at least 5 characters']);
    expect(await update(meta, { title: 'Hi', body: null }, { isDraft: true })).toEqual({ title: 'Hi', body: null });
  });

  it('update never sets publishedAt but may change it', async () => {
    expect(await update(meta, { title: 'Hello' })).toEqual({ title: 'Hello' });
    expect(await update(meta, { publishedAt: null })).toEqual({ publishedAt: null });
  });

  it('types without draft & publish ignore publishedAt', async () => {
    expect(await create(single('title', 'string'), { title: 'x', publishedAt: null })).toEqual({ title: 'x' });
  });
});

describe('string, text, richtext', () => {
  it.each(['string', 'text', 'richtext'] as const)('%s stores strings as given', async (type) => {
    expect(await create(single('title', type), { title: '  Hé\n' })).toEqual({ title: '  Hé\n' });
  });

  it('minLength and maxLength', async () => {
    const meta = single('title', 'string', { minLength: 3, maxLength: 5 });
    expect(await messagesOf(create(meta, { title: 'ab' }))).toEqual(['title must be at least 3 characters']);
    expect(await messagesOf(create(meta, { title: 'abcdef' }))).toEqual(['title must be at most 5 characters']);
    expect(await create(meta, { title: 'abc' })).toEqual({ title: 'abc' });
  });

  it('minLength applies to "" even on optional fields (yup only skips null/undefined)', async () => {
    expect(await messagesOf(create(single('title', 'string', { minLength: 1 }), { title: '' }))).toEqual([
      'title must be at least 1 characters',
    ]);
  });

  it('non-strings fail the type check: Strapi\'s string validators do not cast', async () => {
    const meta = single('title', 'string');
    expect(await messagesOf(create(meta, { title: 123 }))).toEqual([
      'title must be a `string` type, but the final value was: `123`.',
    ]);
    expect(await messagesOf(create(meta, { title: true }))).toEqual([
      'title must be a `string` type, but the final value was: `true`.',
    ]);
    expect(await messagesOf(create(meta, { title: ['a'] }))).toEqual([
      'title must be a `string` type, but the final value was: `[\n  "\\"a\\""\n]`.',
    ]);
  });

  it('objects print the way yup\'s printValue does (nested primitives re-quoted)', async () => {
    expect(await messagesOf(create(single('title', 'string'), { title: { a: 1, b: 'x' } }))).toEqual([
      'title must be a `string` type, but the final value was: `{\n  "a": "1",\n  "b": "\\"x\\""\n}`.',
    ]);
  });

  it('regex: message shows the RegExp, empty string skipped unless required', async () => {
    const optional = single('code', 'string', { regex: '^[a-z]+$' });
    expect(await messagesOf(create(optional, { code: 'ABC' }))).toEqual([
      'code must match the following: "/^[a-z]+$/"',
    ]);
    expect(await create(optional, { code: '' })).toEqual({ code: '' });
    const required = single('code', 'string', { regex: '^[a-z]+$', required: true });
    expect(await messagesOf(create(required, { code: '' }))).toEqual([
      'code must match the following: "/^[a-z]+$/"',
    ]);
  });

  it('every failing rule of a field is reported (Strapi validates with abortEarly: false)', async () => {
    const err = await rejection(create(single('code', 'string', { minLength: 3, regex: '^[a-z]+$' }), { code: '1' }));
    expect(err.message).toBe('2 errors occurred');
    expect(err.details).toEqual({
      errors: [
        { path: ['code'], message: 'code must be at least 3 characters', name: 'ValidationError' },
        { path: ['code'], message: 'code must match the following: "/^[a-z]+$/"', name: 'ValidationError' },
      ],
    });
  });

  it(`caps strings without maxLength at ${MAX_STRING_LENGTH} characters (not Strapi)`, async () => {
    const meta = single('body', 'richtext');
    expect(await create(meta, { body: 'x'.repeat(MAX_STRING_LENGTH) })).toEqual({ body: 'x'.repeat(MAX_STRING_LENGTH) });
    expect(await messagesOf(create(meta, { body: 'x'.repeat(MAX_STRING_LENGTH + 1) }))).toEqual([
      'body must be at most 1000000 characters',
    ]);
  });
});

describe('email', () => {
  const meta = single('email', 'email', { maxLength: 40 });

  it('accepts valid addresses', async () => {
    expect(await create(meta, { email: 'jane.doe+tag@example.co.uk' })).toEqual({ email: 'jane.doe+tag@example.co.uk' });
  });

  it.each(['plainaddress', 'a@b', 'a@b.1', 'a..b@example.com', 'a@-example.com', '@example.com'])(
    'rejects %j with "must be a valid email"',
    async (email) => {
      expect(await messagesOf(create(meta, { email }))).toEqual(['email must be a valid email']);
    },
  );

  it('an empty string gives Strapi\'s "cannot be empty"', async () => {
    expect(await messagesOf(create(meta, { email: '' }))).toEqual(['email cannot be empty']);
  });

  it('keeps the string rules before the format rule', async () => {
    expect(await messagesOf(create(meta, { email: `${'x'.repeat(41)}` }))).toEqual([
      'email must be at most 40 characters',
      'email must be a valid email',
    ]);
  });
});

describe('uid', () => {
  const meta = single('slug', 'uid', { targetField: 'title', maxLength: 12 });

  it('accepts A-Z a-z 0-9 - _ . ~', async () => {
    expect(await create(meta, { slug: 'My-slug_1.0~' })).toEqual({ slug: 'My-slug_1.0~' });
  });

  it('rejects other characters with the uid pattern', async () => {
    expect(await messagesOf(create(meta, { slug: 'no spaces' }))).toEqual([
      'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"',
    ]);
  });

  it('applies maxLength', async () => {
    expect(await messagesOf(create(meta, { slug: 'a'.repeat(13) }))).toEqual(['slug must be at most 12 characters']);
  });
});

describe('enumeration', () => {
  const meta = single('kind', 'enumeration', { enum: ['news', 'blog'] });

  it('accepts listed values', async () => {
    expect(await create(meta, { kind: 'blog' })).toEqual({ kind: 'blog' });
  });

  it('lists the values, with the trailing ", " Strapi\'s null whitelist entry produces', async () => {
    expect(await messagesOf(create(meta, { kind: 'video' }))).toEqual([
      'kind must be one of the following values: news, blog, ',
    ]);
  });

  it('casts numbers and booleans to strings like yup.string()', async () => {
    expect(await create(single('level', 'enumeration', { enum: ['1', '2'] }), { level: 1 })).toEqual({ level: '1' });
  });

  it('an object fails both the type check and the whitelist', async () => {
    expect(await messagesOf(create(meta, { kind: {} }))).toEqual([
      'kind must be a `string` type, but the final value was: `{}`.',
      'kind must be one of the following values: news, blog, ',
    ]);
  });
});

describe('integer', () => {
  const meta = single('count', 'integer', { min: 1, max: 100 });

  it('accepts numbers and numeric strings (yup drops all whitespace)', async () => {
    expect(await create(meta, { count: 42 })).toEqual({ count: 42 });
    expect(await create(meta, { count: '42' })).toEqual({ count: 42 });
    expect(await create(meta, { count: ' 4 2 ' })).toEqual({ count: 42 });
  });

  it('"must be an integer"', async () => {
    expect(await messagesOf(create(meta, { count: 1.5 }))).toEqual(['count must be an integer']);
  });

  it('min and max', async () => {
    expect(await messagesOf(create(meta, { count: 0 }))).toEqual(['count must be greater than or equal to 1']);
    expect(await messagesOf(create(meta, { count: 101 }))).toEqual(['count must be less than or equal to 100']);
  });

  it('Strapi truncates integer bounds', async () => {
    const truncated = single('count', 'integer', { min: 1.9 });
    expect(await messagesOf(create(truncated, { count: 0 }))).toEqual(['count must be greater than or equal to 1']);
  });

  it('reports integer and range together', async () => {
    expect(await messagesOf(create(meta, { count: 0.5 }))).toEqual([
      'count must be an integer',
      'count must be greater than or equal to 1',
    ]);
  });

  it('non-numbers: yup\'s typeError after its cast to NaN', async () => {
    expect(await messagesOf(create(meta, { count: 'abc' }))).toEqual([
      'count must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
    ]);
    expect(await messagesOf(create(meta, { count: '' }))).toEqual([
      'count must be a `number` type, but the final value was: `NaN` (cast from the value `""`).',
    ]);
    expect(await messagesOf(create(meta, { count: true }))).toEqual([
      'count must be a `number` type, but the final value was: `NaN` (cast from the value `true`).',
    ]);
    expect(await messagesOf(create(meta, { count: [5] }))).toEqual([
      'count must be a `number` type, but the final value was: `NaN` (cast from the value `[\n  "5"\n]`).',
    ]);
  });

  it('stays within Prisma\'s 32-bit Int (not Strapi)', async () => {
    const open = single('count', 'integer');
    expect(await messagesOf(create(open, { count: 2 ** 31 }))).toEqual(['count must be less than or equal to 2147483647']);
    expect(await messagesOf(create(open, { count: -(2 ** 31) - 1 }))).toEqual([
      'count must be greater than or equal to -2147483648',
    ]);
  });
});

describe('float', () => {
  const meta = single('ratio', 'float', { min: 0.5, max: 2.5 });

  it('accepts numbers and numeric strings', async () => {
    expect(await create(meta, { ratio: '1.25' })).toEqual({ ratio: 1.25 });
    expect(await create(meta, { ratio: 2 })).toEqual({ ratio: 2 });
  });

  it('min and max are not truncated', async () => {
    expect(await messagesOf(create(meta, { ratio: 0.4 }))).toEqual(['ratio must be greater than or equal to 0.5']);
    expect(await messagesOf(create(meta, { ratio: 2.6 }))).toEqual(['ratio must be less than or equal to 2.5']);
  });

  it('rejects Infinity, which no column stores (yup would accept it)', async () => {
    expect(await messagesOf(create(meta, { ratio: 'Infinity' }))).toEqual([
      'ratio must be a `number` type, but the final value was: `Infinity` (cast from the value `"Infinity"`).',
    ]);
  });
});

describe('decimal', () => {
  const meta = single('price', 'decimal', { min: 0, max: 1000 });

  it('becomes a string keeping the digits as sent', async () => {
    expect(await create(meta, { price: '12.50' })).toEqual({ price: '12.50' });
    expect(await create(meta, { price: ' 12.50 ' })).toEqual({ price: '12.50' });
    expect(await create(meta, { price: '0.1000000000000000000001' })).toEqual({ price: '0.1000000000000000000001' });
    expect(await create(meta, { price: '1e2' })).toEqual({ price: '1e2' });
  });

  it('numbers become their shortest decimal string', async () => {
    expect(await create(meta, { price: 12.5 })).toEqual({ price: '12.5' });
    expect(await create(meta, { price: 0 })).toEqual({ price: '0' });
  });

  it('validates like a float', async () => {
    expect(await messagesOf(create(meta, { price: '-0.01' }))).toEqual(['price must be greater than or equal to 0']);
    expect(await messagesOf(create(meta, { price: '12,50' }))).toEqual([
      'price must be a `number` type, but the final value was: `NaN` (cast from the value `"12,50"`).',
    ]);
  });
});

describe('biginteger (not validated by Strapi\'s yup; exact here)', () => {
  const meta = single('big', 'biginteger');

  it('digit strings are exact, never through a double', async () => {
    expect(await create(meta, { big: '9007199254740993' })).toEqual({ big: 9007199254740993n });
    expect(await create(meta, { big: '-42' })).toEqual({ big: -42n });
  });

  it('safe integer numbers are accepted', async () => {
    expect(await create(meta, { big: 42 })).toEqual({ big: 42n });
  });

  it('rejects numbers that already lost precision', async () => {
    expect(await messagesOf(create(meta, { big: 2 ** 60 }))).toEqual([
      'big must be a safe integer; send larger values as a string',
    ]);
  });

  it.each([1.5, '1.5', 'abc', '', true, {}])('rejects %j with "must be an integer"', async (big) => {
    expect(await messagesOf(create(meta, { big }))).toEqual(['big must be an integer']);
  });

  it('string min/max compare exactly', async () => {
    const bounded = single('big', 'biginteger', { min: '-9007199254740993', max: '9007199254740993' });
    expect(await create(bounded, { big: '9007199254740993' })).toEqual({ big: 9007199254740993n });
    expect(await messagesOf(create(bounded, { big: '9007199254740994' }))).toEqual([
      'big must be less than or equal to 9007199254740993',
    ]);
    expect(await messagesOf(create(bounded, { big: '-9007199254740994' }))).toEqual([
      'big must be greater than or equal to -9007199254740993',
    ]);
  });

  it('stays within 64 bits', async () => {
    expect(await create(meta, { big: '9223372036854775807' })).toEqual({ big: 9223372036854775807n });
    expect(await messagesOf(create(meta, { big: '9223372036854775808' }))).toEqual([
      'big must be less than or equal to 9223372036854775807',
    ]);
  });
});

describe('boolean', () => {
  const meta = single('flag', 'boolean');

  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['TRUE', true],
    ['1', true],
    [1, true],
    ['false', false],
    ['0', false],
    [0, false],
  ])('casts %j to %j like yup.boolean()', async (flag, expected) => {
    expect(await create(meta, { flag })).toEqual({ flag: expected });
  });

  it.each([
    ['t', '`"t"`'],
    ['yes', '`"yes"`'],
    [2, '`2`'],
    [{}, '`{}`'],
  ])('rejects %j', async (flag, printed) => {
    expect(await messagesOf(create(meta, { flag }))).toEqual([
      `flag must be a \`boolean\` type, but the final value was: ${printed}.`,
    ]);
  });
});

describe('datetime and timestamp', () => {
  it.each(['datetime', 'timestamp'] as const)('%s accepts ISO 8601 and epoch milliseconds', async (type) => {
    const meta = single('at', type);
    const expected = new Date('2020-08-20T10:27:55.000Z');
    for (const at of [
      '2020-08-20T10:27:55.000Z',
      '2020-08-20T10:27:55Z',
      '2020-08-20T12:27:55+02:00',
      '2020-08-20T05:27:55-0500',
      '2020-08-20 10:27:55',
      '2020-08-20T10:27:55.000', // no offset: UTC (not the server's zone)
      expected.getTime(),
      String(expected.getTime()),
    ]) {
      expect(await create(meta, { at })).toEqual({ at: expected });
    }
  });

  it('a date alone is midnight UTC; fractions beyond milliseconds are truncated', async () => {
    const meta = single('at', 'datetime');
    expect(await create(meta, { at: '2020-08-20' })).toEqual({ at: new Date('2020-08-20T00:00:00.000Z') });
    expect(await create(meta, { at: '2020-08-20T10:27:55.123456Z' })).toEqual({
      at: new Date('2020-08-20T10:27:55.123Z'),
    });
  });

  it.each(['2020-13-01T00:00:00Z', '2021-02-29T00:00:00Z', '2020-08-20T24:00:00Z', 'yesterday', '', true, 1.5])(
    'rejects %j',
    async (at) => {
      expect(await messagesOf(create(single('at', 'datetime'), { at }))).toEqual([
        'at must be a valid datetime (ISO 8601 or epoch milliseconds)',
      ]);
    },
  );
});

describe('date', () => {
  const meta = single('day', 'date');

  it('YYYY-MM-DD becomes midnight UTC', async () => {
    expect(await create(meta, { day: '2020-08-20' })).toEqual({ day: new Date('2020-08-20T00:00:00.000Z') });
    expect(await create(meta, { day: '2024-02-29' })).toEqual({ day: new Date('2024-02-29T00:00:00.000Z') });
  });

  it('a full datetime keeps its date part as written (Strapi extracts the leading YYYY-MM-DD)', async () => {
    expect(await create(meta, { day: '2020-08-20T23:30:00-05:00' })).toEqual({
      day: new Date('2020-08-20T00:00:00.000Z'),
    });
  });

  it.each(['2023-02-29', '2020-8-20', '20/08/2020', 1597881600000, true])('rejects %j', async (day) => {
    expect(await messagesOf(create(meta, { day }))).toEqual(['day must be a valid date (YYYY-MM-DD)']);
  });
});

describe('time', () => {
  const meta = single('at', 'time');

  it.each([
    ['10:27', '1970-01-01T10:27:00.000Z'],
    ['10:27:55', '1970-01-01T10:27:55.000Z'],
    ['10:27:55.1', '1970-01-01T10:27:55.100Z'],
    ['23:59:59.999', '1970-01-01T23:59:59.999Z'],
  ])('%s becomes that UTC time on 1970-01-01', async (at, iso) => {
    expect(await create(meta, { at })).toEqual({ at: new Date(iso) });
  });

  it.each(['24:00', '10:60', '10:27:55.1234', '1027', 36000000])('rejects %j', async (at) => {
    expect(await messagesOf(create(meta, { at }))).toEqual(['at must be a valid time (HH:mm:ss.SSS)']);
  });
});

describe('json', () => {
  const meta = single('data', 'json');

  it.each([
    ['an object', { a: [1, { b: null }] }],
    ['an array', [1, 'two', false]],
    ['a string (even one that is not JSON text)', 'not { json'],
    ['a number', 3.5],
    ['false', false],
  ])('stores %s as given', async (_label, data) => {
    expect(await create(meta, { data })).toEqual({ data });
  });

  const nest = (depth: number): unknown => (depth === 0 ? 1 : { a: nest(depth - 1) });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and rejects more (not Strapi)`, async () => {
    expect(await create(meta, { data: nest(MAX_JSON_DEPTH) })).toEqual({ data: nest(MAX_JSON_DEPTH) });
    expect(await messagesOf(create(meta, { data: nest(MAX_JSON_DEPTH + 1) }))).toEqual([
      'data must not be nested more than 20 levels deep',
    ]);
  });

  it('rejects values JSON cannot hold', async () => {
    expect(await messagesOf(create(meta, { data: { when: new Date(0) } }))).toEqual(['data must be a valid JSON value']);
  });
});

describe('array', () => {
  const meta = single('tags', 'array');

  it('stores arrays as given', async () => {
    expect(await create(meta, { tags: ['a', { b: 1 }] })).toEqual({ tags: ['a', { b: 1 }] });
  });

  it('rejects anything else with yup\'s array typeError', async () => {
    expect(await messagesOf(create(meta, { tags: 'a' }))).toEqual([
      'tags must be a `array` type, but the final value was: `"a"`.',
    ]);
  });
});

describe('password', () => {
  const meta = single('password', 'password', { minLength: 6, private: true });

  it('is hashed with the injected hasher', async () => {
    expect(await create(meta, { password: 'secret1' })).toEqual({ password: 'hashed:secret1' });
  });

  it('length rules apply to the plain text, and nothing is hashed when validation fails', async () => {
    const hashPassword = vi.fn(fakeHash);
    const err = await rejection(create(meta, { password: 'abc' }, { hashPassword }));
    expect(err.message).toBe('password must be at least 6 characters');
    expect(hashPassword).not.toHaveBeenCalled();
  });

  it('null clears the password without hashing', async () => {
    const hashPassword = vi.fn(fakeHash);
    expect(await update(meta, { password: null }, { hashPassword })).toEqual({ password: null });
    expect(hashPassword).not.toHaveBeenCalled();
  });
});

describe('several failing fields', () => {
  const fields: FieldMeta[] = [
    scalar('title', 'string', { required: true }),
    scalar('count', 'integer'),
    scalar('kind', 'enumeration', { enum: ['a', 'b'] }),
    scalar('ok', 'boolean'),
  ];
  const meta = contentType(fields);

  it('throws one 400 ValidationError: "<n> errors occurred", details.errors in field order', async () => {
    const err = await rejection(prepareWriteData(meta, { kind: 'c', count: 'x', ok: true }, {
      mode: 'create',
      hashPassword: fakeHash,
      now: NOW,
    }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.status).toBe(400);
    expect(err.name).toBe('ValidationError');
    expect(err.message).toBe('3 errors occurred');
    expect(err.details).toEqual({
      errors: [
        { path: ['title'], message: 'title must be defined.', name: 'ValidationError' },
        {
          path: ['count'],
          message: 'count must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).',
          name: 'ValidationError',
        },
        { path: ['kind'], message: 'kind must be one of the following values: a, b, ', name: 'ValidationError' },
      ],
    });
  });

  it('a single failure uses its own message', async () => {
    const err = await rejection(create(meta, {}));
    expect(err.message).toBe('title must be defined.');
    expect(err.details).toEqual({
      errors: [{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }],
    });
  });
});
