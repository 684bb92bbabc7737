/**
 * The custom scalars (Strapi v4 §8.1): JSON, DateTime, Date, Time, Long and Upload. Their
 * descriptions live in the SDL (sdl.ts), so the printed schema does not depend on these.
 * Output values come from the REST layer already formatted (ISO datetimes, `YYYY-MM-DD`,
 * `HH:mm:ss.SSS`, bigintegers as exact strings); inputs are checked and normalised to
 * what the REST write path accepts.
 */
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';
import { ValidationError } from '../errors.js';
import type { ReceivedFile } from '../upload/multipart.js';

const isoDateTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const isoDate = /^(\d{4}-\d{2}-\d{2})/;
const time = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/;

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

function literalString(ast: ValueNode, scalar: string): string {
  if (ast.kind !== Kind.STRING) throw new GraphQLError(`${scalar} cannot represent a non string value: ${ast.kind}`, { nodes: ast });
  return ast.value;
}

function parseDateTime(value: unknown): string {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  if (typeof value === 'string' && isoDateTime.test(value.trim())) {
    const date = new Date(value.trim());
    if (!Number.isNaN(date.getTime())) return date.toISOString();
  }
  throw new TypeError(`DateTime cannot represent an invalid date-time-string ${JSON.stringify(value)}.`);
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(literalString(ast, 'DateTime')),
});

/** Strapi keeps the `YYYY-MM-DD` part of what it is given. */
function parseDate(value: unknown): string {
  const text = value instanceof Date ? value.toISOString() : value;
  const match = typeof text === 'string' ? isoDate.exec(text.trim()) : null;
  if (match && !Number.isNaN(new Date(`${match[1]}T00:00:00Z`).getTime())) return match[1]!;
  throw new TypeError(`Date cannot represent an invalid date-string ${JSON.stringify(value)}.`);
}

export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  serialize: (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value),
  parseValue: parseDate,
  parseLiteral: (ast) => parseDate(literalString(ast, 'Date')),
});

function parseTime(value: unknown): string {
  if (typeof value !== 'string' || !time.test(value.trim())) {
    throw new ValidationError(`Time cannot represent ${JSON.stringify(value)}: expected HH:mm:ss.SSS`);
  }
  return value.trim();
}

export const TimeScalar = new GraphQLScalarType({
  name: 'Time',
  serialize: (value) => value,
  parseValue: parseTime,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new ValidationError('Time cannot represent non string type');
    return parseTime(ast.value);
  },
});

const maxLong = 2n ** 63n - 1n;
const minLong = -(2n ** 63n);

/** A 64-bit integer input, returned as an exact string (what the REST write path takes). */
function parseLong(value: unknown): string {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'bigint' ? value.toString() : typeof value === 'string' ? value.trim() : '';
  if (/^-?\d+$/.test(text)) {
    const n = BigInt(text);
    if (n >= minLong && n <= maxLong) return n.toString();
  }
  throw new TypeError(`Long cannot represent non 64-bit integer value: ${JSON.stringify(typeof value === 'bigint' ? value.toString() : value)}`);
}

export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  serialize: (value) => {
    const text = parseLong(value);
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : text;
  },
  parseValue: parseLong,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return parseLong(ast.value);
    throw new GraphQLError(`Long cannot represent a non-integer value: ${ast.kind}`, { nodes: ast });
  },
});

/** A file of a GraphQL multipart request (graphql-multipart-request-spec), already on disk. */
export interface Upload {
  readonly file: ReceivedFile;
}

export function isUpload(value: unknown): value is Upload {
  return typeof value === 'object' && value !== null && uploadMarker in value;
}

const uploadMarker = Symbol('upload');

/** Wraps a received file so only the multipart reader can produce an Upload value. */
export function toUpload(file: ReceivedFile): Upload {
  return { file, [uploadMarker]: true } as Upload;
}

export const UploadScalar = new GraphQLScalarType({
  name: 'Upload',
  serialize: () => {
    throw new GraphQLError('Upload serialization unsupported.');
  },
  parseValue: (value) => {
    if (isUpload(value)) return value;
    throw new GraphQLError('Upload value invalid: send the file in a multipart request (graphql-multipart-request-spec).');
  },
  parseLiteral: (ast) => {
    throw new GraphQLError('Upload literal unsupported.', { nodes: ast });
  },
});

/**
 * A scalar's behaviour as a resolver-map entry: only its functions, so the schema keeps the
 * name and description its SDL gives (a scalar instance would overwrite them).
 */
export function scalarBehaviour(scalar: GraphQLScalarType): Pick<GraphQLScalarType, 'serialize' | 'parseValue' | 'parseLiteral'> {
  const { serialize, parseValue, parseLiteral } = scalar.toConfig();
  return { serialize, parseValue, parseLiteral } as Pick<GraphQLScalarType, 'serialize' | 'parseValue' | 'parseLiteral'>;
}

export const scalarResolvers = {
  JSON: scalarBehaviour(JSONScalar),
  DateTime: scalarBehaviour(DateTimeScalar),
  Date: scalarBehaviour(DateScalar),
  Time: scalarBehaviour(TimeScalar),
  Long: scalarBehaviour(LongScalar),
  Upload: scalarBehaviour(UploadScalar),
};
