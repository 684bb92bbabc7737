/**
 * src/generated/graphql/types.ts: TypeScript types of the served GraphQL schema, for typed
 * resolvers in src/extensions/graphql.ts and typed clients: every input type, enum and
 * object type, and the arguments of every field that takes some (`QueryArticlesArgs`,
 * `ArticleTagsArgs`). Derived from the same schema object schema.graphql prints, so both
 * always agree.
 */
import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';

const scalarTypes: Readonly<Record<string, string>> = {
  ID: 'string',
  String: 'string',
  Int: 'number',
  Float: 'number',
  Boolean: 'boolean',
  JSON: 'unknown',
  DateTime: 'string',
  Date: 'string',
  Time: 'string',
  Long: 'string | number',
  Upload: 'unknown',
};

const header = `/**
 * TypeScript types of the GraphQL schema served at /graphql (schema.graphql): inputs and
 * arguments as resolvers receive them, objects as clients get them. Enum values are their
 * GraphQL names; scalars are in \`Scalars\`.
 */
`;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `ArticleEntity` / `[ArticleEntity!]!` → `ArticleEntity` / `Array<ArticleEntity>`, nullable as `| null`. */
function typeRef(type: GraphQLType, nullable = true): string {
  if (isNonNullType(type)) return typeRef(type.ofType, false);
  const inner = isListType(type) ? `Array<${typeRef(type.ofType)}>` : isScalarType(type) ? `Scalars['${type.name}']` : type.name;
  return nullable ? `${inner} | null` : inner;
}

function quoteKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function argsInterface(name: string, field: GraphQLField<unknown, unknown>): string {
  const members = field.args.map((arg) => `  ${quoteKey(arg.name)}${isNonNullType(arg.type) && arg.defaultValue === undefined ? '' : '?'}: ${typeRef(arg.type)};`);
  return `export interface ${name} {\n${members.join('\n')}\n}`;
}

const upperFirst = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

export function schemaTypes(schema: GraphQLSchema): string {
  const types = Object.values(schema.getTypeMap())
    .filter((type) => !type.name.startsWith('__') && !isSpecifiedScalarType(type))
    .sort((a, b) => compare(a.name, b.name));
  const scalarOf = (name: string) => scalarTypes[name] ?? (name.endsWith('DynamicZoneInput') ? '{ __typename: string; [field: string]: unknown }' : 'unknown');
  const scalars = types.filter(isScalarType).map((type) => `  ${type.name}: ${scalarOf(type.name)};`);
  const blocks: string[] = [
    `export interface Scalars {\n${['ID', 'String', 'Int', 'Float', 'Boolean'].map((n) => `  ${n}: ${scalarTypes[n]};`).join('\n')}\n${scalars.join('\n')}\n}`,
  ];
  for (const type of types) {
    if (isEnumType(type)) {
      blocks.push(`export type ${type.name} = ${type.getValues().map((v) => JSON.stringify(v.name)).join(' | ')};`);
    } else if (isUnionType(type)) {
      blocks.push(`export type ${type.name} = ${type.getTypes().map((t) => t.name).join(' | ')};`);
    } else if (isInputObjectType(type)) {
      const members = Object.values(type.getFields()).map((f) => `  ${quoteKey(f.name)}${isNonNullType(f.type) && f.defaultValue === undefined ? '' : '?'}: ${typeRef(f.type)};`);
      blocks.push(`export interface ${type.name} {\n${members.join('\n')}\n}`);
    } else if (isObjectType(type)) {
      const fields = Object.values(type.getFields());
      const members = [`  __typename?: '${type.name}';`, ...fields.map((f) => `  ${quoteKey(f.name)}: ${typeRef(f.type)};`)];
      blocks.push(`export interface ${type.name} {\n${members.join('\n')}\n}`);
      for (const field of fields) if (field.args.length) blocks.push(argsInterface(`${type.name}${upperFirst(field.name)}Args`, field));
    }
  }
  return `${header}\n${blocks.join('\n\n')}\n`;
}
