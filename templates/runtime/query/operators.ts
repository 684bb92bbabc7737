/**
 * Strapi v4's filter operator names, grouped by how they compile.
 * Names are matched case-sensitively, as Strapi does.
 */

/** Operators that combine whole conditions. */
export const logicalOperators = ['$and', '$or', '$not'] as const;

/** `=`-family comparisons: the value is cast to the column type. */
export const comparisonOperators = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte'] as const;

/** Operators that take a list of values rather than OR-ing one condition per element. */
export const listOperators = ['$in', '$notIn', '$between'] as const;

/** Operators that match text: the value is a string, never cast to the column type. */
export const textOperators = [
  '$eqi',
  '$nei',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;

export const nullOperators = ['$null', '$notNull'] as const;

export type LogicalOperator = (typeof logicalOperators)[number];
export type ComparisonOperator = (typeof comparisonOperators)[number];
export type ListOperator = (typeof listOperators)[number];
export type TextOperator = (typeof textOperators)[number];
export type NullOperator = (typeof nullOperators)[number];
export type AttributeOperator = ComparisonOperator | ListOperator | TextOperator | NullOperator;
export type Operator = LogicalOperator | AttributeOperator;

const attributeOperatorSet: ReadonlySet<string> = new Set<string>([
  ...comparisonOperators,
  ...listOperators,
  ...textOperators,
  ...nullOperators,
]);

const operatorsByLowerCase: ReadonlyMap<string, Operator> = new Map(
  [...logicalOperators, ...attributeOperatorSet].map((op) => [op.toLowerCase(), op as Operator]),
);

export function isAttributeOperator(key: string): key is AttributeOperator {
  return attributeOperatorSet.has(key);
}

/** `$STARTSWITH`, `$Eq`: a known operator spelled with the wrong case. */
export function isMiscasedOperator(key: string): boolean {
  const canonical = operatorsByLowerCase.get(key.toLowerCase());
  return canonical !== undefined && canonical !== key;
}

export function isTextOperator(key: string): key is TextOperator {
  return (textOperators as readonly string[]).includes(key);
}
