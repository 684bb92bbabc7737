/**
 * Request limits and error formatting: the depth rule (graphql-depth-limit's counting and
 * message), the bounded document cache, Strapi's error codes, the scalars, the names and
 * the `plugins.graphql` settings.
 */
import { GraphQLError, buildSchema, parse, validate, specifiedRules } from 'graphql';
import { describe, expect, it } from 'vitest';
import { defaultGraphqlConfig, resolveGraphqlConfig } from '../../../templates/runtime/config.js';
import { ApplicationError, ForbiddenError, NotFoundError, PaginationError, UnauthorizedError, ValidationError } from '../../../templates/runtime/errors.js';
import { formatError, strapiCode } from '../../../templates/runtime/graphql/errors.js';
import { depthLimitRule, DocumentCache } from '../../../templates/runtime/graphql/limits.js';
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
      defaultLimit: 10,
      maxLimit: 100,
      documentSizeLimit: 100_000,
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
  });
});
