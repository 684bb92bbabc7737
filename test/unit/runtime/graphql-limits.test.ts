/**
 * Request limits and error formatting: the depth rule (graphql-depth-limit's counting and
 * message, linear in fragments), tokens and nesting, fields, aliases and repeats, variables,
 * the cost of an operation, suggestions, the bounded document cache, Strapi's error codes,
 * the scalars, the names and the `plugins.graphql` settings.
 */
import { GraphQLError, buildSchema, getVariableValues, parse, validate, specifiedRules, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { defaultGraphqlConfig, resolveGraphqlConfig } from '../../../templates/runtime/config.js';
import { ApplicationError, ForbiddenError, NotFoundError, PaginationError, UnauthorizedError, ValidationError } from '../../../templates/runtime/errors.js';
import { formatError, strapiCode } from '../../../templates/runtime/graphql/errors.js';
import { maxFilterValues, operationCost, unboundedListItems } from '../../../templates/runtime/graphql/cost.js';
import {
  checkSelections,
  countSelections,
  depthLimitRule,
  DocumentCache,
  mostRepeated,
  scanSource,
  variablesNesting,
  variableValueCount,
  withoutSuggestions,
} from '../../../templates/runtime/graphql/limits.js';
import * as naming from '../../../templates/runtime/graphql/naming.js';
import { DateScalar, DateTimeScalar, isUpload, LongScalar, TimeScalar, toUpload, UploadScalar } from '../../../templates/runtime/graphql/scalars.js';
import type { ContentTypeMeta } from '../../../templates/runtime/meta.js';

describe('depthLimitRule', () => {
  const schema = buildSchema('type Query { a: A } type A { b: A, n: Int }');
  const errors = (query: string, max: number) => validate(schema, parse(query), [...specifiedRules, depthLimitRule(max)]).map((e) => e.message);

  it('counts fields with a selection set; leaves and __ fields count nothing; fragments expand', () => {
    expect(errors('{ a { b { n } } }', 2)).toEqual([]);
    expect(errors('{ a { b { b { n } } } }', 2)).toEqual(["'' exceeds maximum operation depth of 2"]);
    expect(errors('query Deep { a { b { b { n } } } }', 2)).toEqual(["'Deep' exceeds maximum operation depth of 2"]);
    expect(errors('{ a { __typename b { n } } }', 2)).toEqual([]);
    expect(errors('{ a { ...F } } fragment F on A { b { b { n } } }', 2)).toEqual(["'' exceeds maximum operation depth of 2"]);
    expect(errors('{ a { ... on A { b { n } } } }', 2)).toEqual([]);
  });

  it('reports once per operation', () => {
    expect(errors('{ a { b { b { n } } } x: a { b { b { b { n } } } } }', 1)).toHaveLength(1);
  });

  it('reports at the first field past the limit', () => {
    const [error] = validate(schema, parse('{ a { b { b { n } } } }'), [depthLimitRule(2)]);
    expect(error!.locations).toEqual([{ line: 1, column: 11 }]);
  });

  it('measures each fragment once: a fan-out of 2^40 spreads is instant', () => {
    const fragments = Array.from({ length: 40 }, (_, i) => `fragment F${i + 1} on A { ...F${i} ...F${i} }`).join(' ');
    // Measured once per fragment it ends at once; measured per spread it would not end at all (the test's timeout).
    expect(errors(`{ a { ...F40 } } fragment F0 on A { n } ${fragments}`, 2)).toEqual([]);
    expect(errors(`{ a { ...G40 } } fragment G0 on A { b { b { n } } } ${fragments.replace(/F/g, 'G')}`, 2)).toEqual(["'' exceeds maximum operation depth of 2"]);
  });

  it('a fragment cycle is graphql-js\'s NoFragmentCyclesRule error, not a stack overflow', () => {
    expect(errors('{ a { ...A } } fragment A on A { n ...A }', 5)).toEqual(['Cannot spread fragment "A" within itself.']);
    expect(errors('{ a { ...A } } fragment A on A { b { ...B } } fragment B on A { b { ...A } }', 5)).toEqual(['Cannot spread fragment "A" within itself via "B".']);
  });
});

describe('document limits', () => {
  const limits = { maxTokens: 10, maxNesting: 3 };
  it('scanSource: tokens and nesting, without parsing', () => {
    expect(scanSource('{ a { b } }', limits)).toBeUndefined();
    expect(scanSource('# comments are no tokens\n{ a { b } }', limits)).toBeUndefined();
    expect(scanSource('{ a b c d e f g h i }', limits)).toBe('The GraphQL document has more than 10 tokens (plugins.graphql.maxTokens).');
    expect(scanSource('{ a b c d e f g h i }', { ...limits, maxTokens: 0 })).toBeUndefined();
    expect(scanSource('{ a(x: [[1]]) }', limits)).toBe('The GraphQL document nests braces, brackets or parentheses more than 3 levels deep.');
    expect(scanSource(`{ a(x: ${'['.repeat(100_000)}`, { maxTokens: 0, maxNesting: 100 })).toMatch(/more than 100 levels deep/);
    expect(() => scanSource('{ a(x: "unterminated) }', limits)).toThrow(/Syntax Error: Unterminated string/);
  });

  it('countSelections and checkSelections: fields and aliases as written', () => {
    const document = parse('{ a { x: b { n } ...F } } fragment F on A { y: n n }');
    expect(countSelections(document)).toEqual({ fields: 5, aliases: 2 });
    expect(checkSelections(document, { maxFields: 5, maxAliases: 2 })).toBeUndefined();
    expect(checkSelections(document, { maxFields: 4, maxAliases: 2 })).toBe('The GraphQL document has 5 fields, more than the limit of 4 (plugins.graphql.maxFields).');
    expect(checkSelections(document, { maxFields: 0, maxAliases: 1 })).toBe('The GraphQL document has 2 aliases, more than the limit of 1 (plugins.graphql.maxAliases).');
  });

  it('mostRepeated: one response name in one selection set, inline fragments and spread fragments included', () => {
    expect(mostRepeated(parse('{ a { n n ... on A { n } ...F ...F } } fragment F on A { n ...G } fragment G on A { n x: n }'))).toEqual({ name: 'n', count: 5 });
    // A cycle ends (graphql-js reports it): A's own set counts its n, and A spread in it once more.
    expect(mostRepeated(parse('{ a { ...A } } fragment A on A { n ...A }'))).toEqual({ name: 'n', count: 2 });
    // A fragment spread twice in one set counts once (graphql-js compares it once); one
    // reached through two others counts twice (an overcount, never an undercount).
    const fanOut = Array.from({ length: 60 }, (_, i) => `fragment F${i + 1} on A { ...F${i} ...F${i} }`).join(' ');
    expect(mostRepeated(parse(`{ a { ...F60 } } fragment F0 on A { n } ${fanOut}`))).toEqual({ name: 'n', count: 1 });
    expect(mostRepeated(parse('{ a { ...B ...C } } fragment B on A { ...D } fragment C on A { ...D } fragment D on A { n }'))).toEqual({ name: 'n', count: 2 });
    expect(checkSelections(parse(`{ a { ${'n '.repeat(51)} } }`), { maxFields: 0, maxAliases: 0 })).toBe(
      'The field "n" is asked for 51 times in one selection set (fragments spread there included), more than 50.',
    );
  });

  it('variables: nesting, and values counted by their input types (scalar content counts nothing)', () => {
    expect(variablesNesting({ a: [{ b: 1 }] }, 10)).toBe(3);
    expect(variablesNesting(JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`), 100)).toBe(101);
    const typed = buildSchema('scalar JSON input F { id: [ID] or: [F] note: JSON } type Query { a(f: F, j: JSON): Int }');
    const operation = parse('query($f: F, $j: JSON) { a(f: $f, j: $j) }').definitions[0] as OperationDefinitionNode;
    expect(variableValueCount(typed, operation, { f: { id: ['1', '2'], or: [{ id: ['3'] }], note: { big: [1, 2, 3] } } }, 100)).toBe(8);
    expect(variableValueCount(typed, operation, { j: Array(1000).fill(1) }, 100)).toBe(0);
    expect(variableValueCount(typed, operation, { f: { id: Array(100_000).fill('1') } }, 100)).toBeGreaterThan(100);
  });

  it('withoutSuggestions: graphql-js\'s "Did you mean" leaves the message', () => {
    expect(withoutSuggestions({ message: 'Cannot query field "x" on type "Q". Did you mean "a" or "b"?' })).toEqual({ message: 'Cannot query field "x" on type "Q".' });
    expect(withoutSuggestions({ message: 'Value "LIV" does not exist in "S" enum. Did you mean the enum value "LIVE"?', extensions: { code: 'C' } })).toEqual({
      message: 'Value "LIV" does not exist in "S" enum.',
      extensions: { code: 'C' },
    });
    const plain = { message: 'Syntax Error' };
    expect(withoutSuggestions(plain)).toBe(plain);
  });
});

describe('operationCost', () => {
  const schema = buildSchema(`
    input PaginationArg { page: Int pageSize: Int start: Int limit: Int }
    input F { id: [ID] or: [F] }
    type Query { articles(filters: F, pagination: PaginationArg = {}, sort: [String] = []): Collection  blocks: [Block]  one: Article }
    type Collection { data: [Article!]! meta: Meta! }
    type Meta { total: Int }
    type Article { id: ID title: String tags(pagination: PaginationArg = {}): Tags links(pagination: PaginationArg = {}): [Link] }
    type Tags { data: [Tag!]! }
    type Tag { id: ID name: String }
    type Link { url: String }
    union Block = Tag | Link
  `);
  const limits = { defaultLimit: 10, maxLimit: 100 };
  const cost = (query: string, variables: Record<string, unknown> = {}, listLimits = limits) => {
    const document = parse(query);
    const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
    if (!('coerced' in coerced) || !coerced.coerced) throw new Error('bad variables');
    return operationCost(schema, document, operation, coerced.coerced, listLimits);
  };

  it('each field 1, times the items of the page of the list it is in', () => {
    expect(cost('{ one { id title } }')).toBe(3);
    expect(cost('{ articles { data { id } } }')).toBe(12); // defaultLimit: 1 + (1 + 10 × 1)
    expect(cost('{ articles(pagination: { limit: 50 }) { data { id title } } }')).toBe(102);
    expect(cost('{ articles(pagination: { pageSize: 20, page: 3 }) { data { id } } }')).toBe(22);
    expect(cost('{ articles(pagination: { limit: 500 }) { data { id } } }')).toBe(102); // clamped to maxLimit
    expect(cost('{ articles(pagination: { limit: -1 }) { data { id } } }')).toBe(102);
    expect(cost('{ articles(pagination: { limit: -1 }) { data { id } } }', {}, { defaultLimit: 10, maxLimit: -1 })).toBe(2 + unboundedListItems);
    // meta is not multiplied; nested pages multiply.
    expect(cost('{ articles(pagination: { limit: 100 }) { meta { total } } }')).toBe(3);
    expect(cost('{ articles(pagination: { limit: 100 }) { data { tags(pagination: { limit: 100 }) { data { id } } } } }')).toBe(1 + 1 + 100 * (1 + 1 + 100));
    // A list with its own pagination (repeatable components); one without (dynamic zones) counts once.
    expect(cost('{ one { links(pagination: { limit: 5 }) { url } } }')).toBe(1 + 1 + 5);
    expect(cost('{ one { links { url } } }')).toBe(1 + 1 + 10);
    expect(cost('{ blocks { ... on Tag { id name } ... on Link { url } } }')).toBe(1 + 3);
  });

  it('variables, @skip and @include, fragments (each costed once), introspection', () => {
    expect(cost('query($n: Int) { articles(pagination: { limit: $n }) { data { id } } }', { n: 40 })).toBe(42);
    expect(cost('query($s: Boolean!) { one { id title @skip(if: $s) tags @include(if: $s) { data { id } } } }', { s: true })).toBe(1 + 1 + 1 + 1 + 10);
    expect(cost('{ articles(pagination: { limit: 100 }) { ...C } } fragment C on Collection { data { ...A } } fragment A on Article { id title }')).toBe(1 + 1 + 100 * 2);
    const fragments = Array.from({ length: 60 }, (_, i) => `fragment F${i + 1} on Tag { ...F${i} ...F${i} }`).join(' ');
    // Costed once per fragment: 2^60 visits would never end (the test's timeout).
    expect(cost(`{ one { tags { data { ...F60 } } } } fragment F0 on Tag { id } ${fragments}`)).toBeGreaterThan(2 ** 60);
    expect(cost('{ one { ...A } } fragment A on Article { id ...A }')).toBe(2);
    expect(cost('{ __schema { types { name fields { name type { name } } } } }')).toBe(1 + 1 + 1 + 1 + 1 + 1 + 1);
  });

  it('the filters or the sort of one field: at most maxFilterValues values', () => {
    const ids = (n: number) => ({ f: { id: Array.from({ length: n }, (_, i) => String(i)) } });
    const query = 'query($f: F) { articles(filters: $f) { data { id } } }';
    expect(cost(query, ids(maxFilterValues - 1))).toBe(12);
    expect(() => cost(query, ids(maxFilterValues))).toThrow('Too many values in the filters of articles: at most 1000.');
    expect(() => cost('query($s: [String]) { articles(sort: $s) { data { id } } }', { s: [Array(1001).fill('title').join(',')] })).toThrow(
      'Too many values in the sort of articles: at most 1000.',
    );
    expect(cost('query($s: [String]) { articles(sort: $s) { data { id } } }', { s: ['title:asc,id'] })).toBe(12);
  });
});

describe('DocumentCache', () => {
  it('is a bounded LRU: by entries and by characters', () => {
    const cache = new DocumentCache(2, 100);
    cache.set('a', { errors: [] });
    cache.set('b', { errors: [] });
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.set('c', { errors: [] });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(2);
    const small = new DocumentCache(10, 10);
    small.set('12345', {});
    small.set('678901', {});
    expect(small.get('12345')).toBeUndefined();
    expect(small.bytes).toBe(6);
    small.set('x'.repeat(11), {});
    expect(small.size).toBe(1);
  });
});

describe('formatError', () => {
  const format = (original: Error, phase?: 'request' | 'execution') => {
    const logged: unknown[] = [];
    const error = new GraphQLError(original.message, { path: ['articles'], originalError: original });
    return { formatted: formatError(error, 'INTERNAL_SERVER_ERROR', (e) => logged.push(e), phase), logged };
  };

  it('Forbidden and Unauthorized → FORBIDDEN; ValidationError → BAD_USER_INPUT; others → STRAPI_<NAME>', () => {
    expect(format(new ForbiddenError('Forbidden access')).formatted).toEqual({
      message: 'Forbidden access',
      path: ['articles'],
      extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
    });
    expect(format(new UnauthorizedError()).formatted.extensions!.code).toBe('FORBIDDEN');
    expect(format(new ValidationError('bad', { errors: [] })).formatted.extensions).toEqual({ error: { name: 'ValidationError', message: 'bad', details: { errors: [] } }, code: 'BAD_USER_INPUT' });
    expect(format(new NotFoundError()).formatted.extensions!.code).toBe('STRAPI_NOT_FOUND_ERROR');
    expect(format(new PaginationError('p')).formatted.extensions!.code).toBe('STRAPI_PAGINATION_ERROR');
    expect(format(new ApplicationError('a')).formatted.extensions!.code).toBe('STRAPI_APPLICATION_ERROR');
    expect(strapiCode('RateLimitError')).toBe('STRAPI_RATE_LIMIT_ERROR');
  });

  it('unknown errors are hidden and logged during execution, explained before it', () => {
    const { formatted, logged } = format(new TypeError('db exploded'));
    expect(formatted).toEqual({ message: 'Internal Server Error', path: ['articles'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(logged).toHaveLength(1);
    const input = format(new TypeError('DateTime cannot represent x'), 'request');
    expect(input.formatted.message).toBe('DateTime cannot represent x');
    expect(input.logged).toHaveLength(0);
  });

  it('graphql-js errors keep their message and get the phase code', () => {
    expect(formatError(new GraphQLError('Syntax Error: x'), 'GRAPHQL_PARSE_FAILED', () => {}, 'request')).toEqual({ message: 'Syntax Error: x', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
  });
});

describe('scalars', () => {
  it('DateTime, Date and Time parse to what the REST layer stores', () => {
    expect(DateTimeScalar.parseValue('2024-05-06T07:08:09+02:00')).toBe('2024-05-06T05:08:09.000Z');
    expect(() => DateTimeScalar.parseValue('yesterday')).toThrow(/DateTime cannot represent/);
    expect(DateScalar.parseValue('2024-05-06T07:08:09Z')).toBe('2024-05-06');
    expect(() => DateScalar.parseValue('2024-13-45')).toThrow(/Date cannot represent/);
    expect(TimeScalar.parseValue('10:20:30.123')).toBe('10:20:30.123');
    expect(() => TimeScalar.parseValue(1020)).toThrow(ValidationError);
  });

  it('Long: exact strings in, numbers out when exact in JavaScript', () => {
    expect(LongScalar.parseValue(42)).toBe('42');
    expect(LongScalar.parseValue('9223372036854775807')).toBe('9223372036854775807');
    expect(() => LongScalar.parseValue('9223372036854775808')).toThrow(/Long cannot represent/);
    expect(() => LongScalar.parseValue(1.5)).toThrow();
    expect(LongScalar.serialize('12')).toBe(12);
    expect(LongScalar.serialize('9007199254740993')).toBe('9007199254740993');
  });

  it('Upload only takes files of a multipart request', () => {
    const upload = toUpload({ field: '0', filename: 'a.txt', mimeType: 'text/plain', path: '/tmp/a', size: 1 });
    expect(isUpload(upload)).toBe(true);
    expect(UploadScalar.parseValue(upload)).toBe(upload);
    expect(() => UploadScalar.parseValue({ file: {} })).toThrow(/multipart/);
    expect(() => UploadScalar.serialize(upload)).toThrow(/unsupported/);
  });
});

describe('naming', () => {
  const meta = (singularName: string, pluralName: string, plugin?: string) => ({ singularName, pluralName, ...(plugin ? { plugin } : {}), kind: 'collectionType' }) as ContentTypeMeta;
  it('follows Strapi v4: plugin prefix, camel queries, create/update/delete, enums, dynamic zones', () => {
    const user = meta('user', 'users', 'users-permissions');
    expect([naming.typeName(user), naming.findOneQueryName(user), naming.findQueryName(user), naming.createMutationName(user)]).toEqual([
      'UsersPermissionsUser',
      'usersPermissionsUser',
      'usersPermissionsUsers',
      'createUsersPermissionsUser',
    ]);
    const post = meta('blog-post', 'blog-posts');
    expect([naming.typeName(post), naming.findQueryName(post), naming.entityResponseCollectionName(post), naming.filtersInputName(post)]).toEqual([
      'BlogPost',
      'blogPosts',
      'BlogPostEntityResponseCollection',
      'BlogPostFiltersInput',
    ]);
    expect(naming.enumTypeName(post, 'status')).toBe('ENUM_BLOGPOST_STATUS');
    expect(naming.enumTypeName({ uid: 'shared.seo', fields: {} }, 'kind')).toBe('ENUM_COMPONENTSHAREDSEO_KIND');
    expect(naming.dynamicZoneName(post, 'HTMLBody')).toBe('BlogPostHtmlBodyDynamicZone');
    expect(naming.dynamicZoneInputName(post, 'blocks')).toBe('BlogPostBlocksDynamicZoneInput');
    expect(naming.componentTypeName('shared.rich-text')).toBe('ComponentSharedRichText');
  });

  it('enum values are slugs with _ that keep case', () => {
    expect(['in progress', 'Ünïcode', 'rock & roll', 'a--b', '1st', 'Straße'].map(naming.enumValueName)).toEqual(['in_progress', 'Uenicode', 'rock_and_roll', 'a_b', '_1st', 'Strasse']);
  });
});

describe('plugins.graphql settings', () => {
  it('defaults', () => {
    expect(resolveGraphqlConfig({})).toEqual({
      endpoint: '/graphql',
      shadowCRUD: true,
      playgroundAlways: false,
      depthLimit: 10,
      defaultLimit: 25,
      maxLimit: 100,
      documentSizeLimit: 100_000,
      maxTokens: 2000,
      maxFields: 1000,
      maxAliases: 200,
      maxComplexity: 20_000,
      responseSizeLimit: 10_000_000,
      plannedExecution: true,
    });
    expect(resolveGraphqlConfig({})).toEqual(defaultGraphqlConfig());
  });

  it('amountLimit is an alias of maxLimit; -1 is no maximum; bad values are errors naming the key', () => {
    expect(resolveGraphqlConfig({ amountLimit: 50 }).maxLimit).toBe(50);
    expect(resolveGraphqlConfig({ maxLimit: -1 }).maxLimit).toBe(-1);
    expect(() => resolveGraphqlConfig({ amountLimit: 50, maxLimit: 60 })).toThrow(/disagree/);
    expect(() => resolveGraphqlConfig({ maxLimit: 0 })).toThrow(/maxLimit/);
    expect(() => resolveGraphqlConfig({ depthLimit: -1 })).toThrow(/plugins.graphql.depthLimit/);
    expect(() => resolveGraphqlConfig({ endpoint: 'graphql' })).toThrow(/endpoint/);
    expect(() => resolveGraphqlConfig({ playgroundAlways: 'yes' as never })).toThrow(/playgroundAlways/);
    expect(() => resolveGraphqlConfig({ plannedExecution: 'no' as never })).toThrow(/plannedExecution must be true or false/);
    expect(resolveGraphqlConfig({ maxComplexity: 0, maxTokens: 0 })).toMatchObject({ maxComplexity: 0, maxTokens: 0 });
    expect(() => resolveGraphqlConfig({ maxComplexity: -1 })).toThrow('config plugins.graphql.maxComplexity must be an integer of at least 0, got -1');
    expect(() => resolveGraphqlConfig({ responseSizeLimit: 1.5 })).toThrow(/plugins.graphql.responseSizeLimit/);
  });
});
