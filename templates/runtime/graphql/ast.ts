/**
 * Small constructors of graphql-js SDL nodes, so the schema is built as a DocumentNode
 * (never by concatenating SDL text). Types are written as GraphQL type references
 * (`[ArticleEntity!]!`) and parsed by graphql-js.
 */
import {
  Kind,
  parseConstValue,
  parseType,
  type ConstValueNode,
  type DefinitionNode,
  type DocumentNode,
  type EnumTypeDefinitionNode,
  type FieldDefinitionNode,
  type InputObjectTypeDefinitionNode,
  type InputValueDefinitionNode,
  type NameNode,
  type ObjectTypeDefinitionNode,
  type ObjectTypeExtensionNode,
  type ScalarTypeDefinitionNode,
  type StringValueNode,
  type UnionTypeDefinitionNode,
} from 'graphql';

const name = (value: string): NameNode => ({ kind: Kind.NAME, value });

const describe = (text: string | undefined): { description?: StringValueNode } =>
  text ? { description: { kind: Kind.STRING, value: text, block: true } } : {};

export interface ArgSpec {
  readonly name: string;
  /** A type reference: `ID`, `[String]`, `ArticleInput!`. */
  readonly type: string;
  /** A default value in GraphQL syntax: `{}`, `[]`, `LIVE`. */
  readonly defaultValue?: string;
}

export function inputValue(spec: ArgSpec): InputValueDefinitionNode {
  const defaultValue: ConstValueNode | undefined = spec.defaultValue === undefined ? undefined : parseConstValue(spec.defaultValue);
  return { kind: Kind.INPUT_VALUE_DEFINITION, name: name(spec.name), type: parseType(spec.type), ...(defaultValue ? { defaultValue } : {}) };
}

export interface FieldSpec {
  readonly name: string;
  readonly type: string;
  readonly args?: readonly ArgSpec[];
  readonly description?: string;
}

export function field(spec: FieldSpec): FieldDefinitionNode {
  return {
    kind: Kind.FIELD_DEFINITION,
    ...describe(spec.description),
    name: name(spec.name),
    arguments: (spec.args ?? []).map(inputValue),
    type: parseType(spec.type),
  };
}

export function objectType(typeName: string, fields: readonly FieldSpec[], description?: string): ObjectTypeDefinitionNode {
  return { kind: Kind.OBJECT_TYPE_DEFINITION, ...describe(description), name: name(typeName), interfaces: [], directives: [], fields: fields.map(field) };
}

export function objectTypeExtension(typeName: string, fields: readonly FieldSpec[]): ObjectTypeExtensionNode {
  return { kind: Kind.OBJECT_TYPE_EXTENSION, name: name(typeName), interfaces: [], directives: [], fields: fields.map(field) };
}

export function inputType(typeName: string, fields: readonly ArgSpec[]): InputObjectTypeDefinitionNode {
  return { kind: Kind.INPUT_OBJECT_TYPE_DEFINITION, name: name(typeName), directives: [], fields: fields.map(inputValue) };
}

export function enumType(typeName: string, values: readonly string[]): EnumTypeDefinitionNode {
  return {
    kind: Kind.ENUM_TYPE_DEFINITION,
    name: name(typeName),
    directives: [],
    values: values.map((value) => ({ kind: Kind.ENUM_VALUE_DEFINITION, name: name(value), directives: [] })),
  };
}

export function unionType(typeName: string, members: readonly string[]): UnionTypeDefinitionNode {
  return {
    kind: Kind.UNION_TYPE_DEFINITION,
    name: name(typeName),
    directives: [],
    types: members.map((member) => ({ kind: Kind.NAMED_TYPE, name: name(member) })),
  };
}

export function scalarType(typeName: string, description?: string): ScalarTypeDefinitionNode {
  return { kind: Kind.SCALAR_TYPE_DEFINITION, ...describe(description), name: name(typeName), directives: [] };
}

export function document(definitions: readonly DefinitionNode[]): DocumentNode {
  return { kind: Kind.DOCUMENT, definitions };
}
