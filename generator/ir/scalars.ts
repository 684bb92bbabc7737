/**
 * One table: what each Strapi scalar attribute type becomes in Prisma, TypeScript and
 * GraphQL. Emitters look types up here instead of switching on them.
 */
import type { ScalarType } from '../../templates/runtime/meta.js';

export type Provider = 'sqlite' | 'postgresql' | 'mysql';

export interface ScalarMapping {
  /** Prisma scalar type. */
  readonly prisma: string;
  /** Native type attribute per provider, when Prisma's default is not what Strapi stores. */
  readonly nativeType?: Partial<Record<Provider, string>>;
  /** TypeScript type of the value in a REST response. */
  readonly ts: string;
  /** GraphQL scalar (used by the GraphQL emitter). */
  readonly graphql: string;
  /** Strapi type group; decides what `fields` may select and what filters apply. */
  readonly group: 'string' | 'date' | 'number' | 'generic';
}

/**
 * JSON values (json attributes, components, dynamic zones) come back exactly as written on
 * every database: PostgreSQL's default for Prisma's Json, `jsonb`, reorders object keys and
 * drops duplicates, so PostgreSQL stores them as `json` (the text as given). Nothing compares
 * JSON values for equality, which `json` lacks.
 */
export const jsonNativeType = '@db.Json';

export const scalarTypes: Readonly<Record<ScalarType, ScalarMapping>> = {
  string: { prisma: 'String', nativeType: { mysql: '@db.VarChar(255)' }, ts: 'string', graphql: 'String', group: 'string' },
  text: { prisma: 'String', nativeType: { mysql: '@db.LongText' }, ts: 'string', graphql: 'String', group: 'string' },
  richtext: { prisma: 'String', nativeType: { mysql: '@db.LongText' }, ts: 'string', graphql: 'String', group: 'string' },
  enumeration: { prisma: 'String', nativeType: { mysql: '@db.VarChar(255)' }, ts: 'string', graphql: 'String', group: 'string' },
  email: { prisma: 'String', nativeType: { mysql: '@db.VarChar(255)' }, ts: 'string', graphql: 'String', group: 'string' },
  password: { prisma: 'String', nativeType: { mysql: '@db.VarChar(255)' }, ts: 'string', graphql: 'String', group: 'string' },
  uid: { prisma: 'String', nativeType: { mysql: '@db.VarChar(255)' }, ts: 'string', graphql: 'String', group: 'string' },
  date: { prisma: 'DateTime', nativeType: { postgresql: '@db.Date', mysql: '@db.Date' }, ts: 'string', graphql: 'Date', group: 'date' },
  time: { prisma: 'DateTime', nativeType: { postgresql: '@db.Time(3)', mysql: '@db.Time(3)' }, ts: 'string', graphql: 'Time', group: 'date' },
  datetime: { prisma: 'DateTime', nativeType: { postgresql: '@db.Timestamptz(3)', mysql: '@db.DateTime(3)' }, ts: 'string', graphql: 'DateTime', group: 'date' },
  timestamp: { prisma: 'DateTime', nativeType: { postgresql: '@db.Timestamptz(3)', mysql: '@db.DateTime(3)' }, ts: 'string', graphql: 'DateTime', group: 'date' },
  integer: { prisma: 'Int', ts: 'number', graphql: 'Int', group: 'number' },
  biginteger: { prisma: 'BigInt', ts: 'string', graphql: 'Long', group: 'number' },
  float: { prisma: 'Float', ts: 'number', graphql: 'Float', group: 'number' },
  decimal: { prisma: 'Decimal', nativeType: { postgresql: '@db.Decimal(65, 30)', mysql: '@db.Decimal(65, 30)' }, ts: 'number', graphql: 'Float', group: 'number' },
  boolean: { prisma: 'Boolean', ts: 'boolean', graphql: 'Boolean', group: 'generic' },
  json: { prisma: 'Json', nativeType: { postgresql: jsonNativeType }, ts: 'unknown', graphql: 'JSON', group: 'generic' },
  array: { prisma: 'Json', nativeType: { postgresql: jsonNativeType }, ts: 'unknown[]', graphql: 'JSON', group: 'generic' },
};

export const scalarTypeNames = Object.keys(scalarTypes) as ScalarType[];

export function isScalarType(type: string): type is ScalarType {
  return Object.prototype.hasOwnProperty.call(scalarTypes, type);
}
