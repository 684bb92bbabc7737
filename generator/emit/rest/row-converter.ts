/**
 * The per-type row converter (runtime meta.ts `RowConverter`): a content type's default
 * attributes from a row of its default select, written out as one object literal whose
 * members call the value function of their scalar type (runtime rest/response-values.ts).
 * Lists convert every row of every page with it, instead of looking each attribute's type up
 * and dispatching on it for every value.
 */
import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta, ScalarType } from '../../../templates/runtime/meta.js';
import { isSelectableScalar } from '../../../templates/runtime/meta.js';
import { tsLiteral } from '../ts-literal.js';

/** The value function of each scalar type; null: the stored value as is (`?? null`). */
const valueFunctions: Readonly<Record<ScalarType, string | null>> = {
  string: null,
  text: null,
  richtext: null,
  enumeration: null,
  email: null,
  password: null,
  uid: null,
  date: 'dateValue',
  time: 'timeValue',
  datetime: 'dateTimeValue',
  timestamp: 'dateTimeValue',
  integer: 'numberValue',
  biginteger: 'bigIntegerValue',
  float: 'numberValue',
  decimal: 'numberValue',
  boolean: 'booleanValue',
  json: 'jsonValue',
  array: 'jsonValue',
};

/** PostgreSQL cuts result names to 63 bytes (runtime rest/transform.ts `selected`). */
const longestResultName = 63;

/**
 * The value functions are read from a namespace with a PascalCase name: emitted files name
 * their own values in camelCase after the model (a type `date-value` is `dateValue`), their
 * types with a suffix (`…Entry`, `…Input`), so it cannot clash.
 */
export const responseValuesImport = `import * as ResponseValues from '../../runtime/rest/response-values.js';`;

/**
 * `ident`'s declaration for `meta` (as emitted: the fields in declaration order). The names
 * are the ones query/fields.ts `allSelectableFields` selects by default, in its order.
 */
export function rowConverter(meta: Pick<ContentTypeMeta, 'fields'>, ident: string, displayName: string): string {
  const scalars = (Object.values(meta.fields) as FieldMeta[]).filter(isSelectableScalar).filter((field) => field.name !== 'id');
  const members = scalars.map((field: ScalarFieldMeta) => {
    const read = readOf(field.name);
    const fn = valueFunctions[field.type];
    return `    ${memberKey(field.name)}: ${fn ? `ResponseValues.${fn}(${read})` : `${read} ?? null`},`;
  });
  const fields = tsLiteral(['id', ...scalars.map((field) => field.name)], '  ');
  const body = members.length === 0 ? '({})' : `({\n${members.join('\n')}\n  })`;
  return [
    `/** A row of ${displayName}'s default select as its REST attributes (runtime/rest/transform.ts). */`,
    `const ${ident}: RowConverter = {`,
    `  fields: ${fields},`,
    `  attributes: (row) => ${body},`,
    '};',
  ].join('\n');
}

/** `row.name`; a name PostgreSQL may have cut is read under either spelling. */
function readOf(name: string): string {
  const full = `row${propertyAccess(name)}`;
  if (Buffer.byteLength(name) <= longestResultName) return full;
  let cut = name;
  while (Buffer.byteLength(cut) > longestResultName) cut = cut.slice(0, -1);
  return `(${tsLiteral(name)} in row ? ${full} : row${propertyAccess(cut)})`;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyAccess(name: string): string {
  return identifier.test(name) ? `.${name}` : `[${tsLiteral(name)}]`;
}

function memberKey(name: string): string {
  return identifier.test(name) ? name : tsLiteral(name);
}
