import { customFieldsFile, customFieldTypes, customFieldUidPattern, isCustomFieldType } from '../../ir/custom-fields.js';
import { resolveCustomField } from '../../ir/custom-field-resolver.js';
import { installsPlugin } from '../../load/load-custom-fields.js';
import { graphqlNamePattern, regressedEnumValue } from '../../../templates/runtime/graphql/naming.js';
import { isScalarType, scalarTypeNames } from '../../ir/scalars.js';
import { snakeCase } from '../../ir/names.js';
import { isBound, isLength, regexProblem } from '../../ir/scalar-options.js';
import { morphToOneColumns } from '../../ir/relations.js';
import type { RawFile } from '../../load/load-models.js';
import { didYouMean } from '../model-error.js';
import { attributesOf, isPlainObject, pointer, where, type ValidationContext, type ValidationRule } from '../context.js';
import { documentIdColumn, documentIdPrismaField } from '../../ir/identifiers.js';
import { strapiMajor } from '../../ir/project-plugins.js';
import { i18nAttributeNames, isLocalizedType, strapi5CoreAttributeNames } from '../../ir/i18n.js';

export const nonScalarTypes = ['relation', 'media', 'component', 'dynamiczone', 'blocks', 'customField'] as const;
export const relationKinds = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'] as const;
/** Strapi v4's polymorphic relations (README, Morph relations). */
export const morphRelationKinds = ['morphToOne', 'morphToMany', 'morphOne', 'morphMany'] as const;
const mediaTypes = ['images', 'videos', 'files', 'audios'];

/**
 * Names contentgen (like Strapi) adds or uses itself; a model may not declare them.
 * `__component` and `__contentType` mark dynamic-zone items.
 */
export const reservedAttributeNames = [
  'id',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'locale',
  'localizations',
  '__component',
  '__contentType',
];

const attributeNamePattern = /^[A-Za-z][A-Za-z0-9_]*$/;
/**
 * A name with letters outside ASCII (`año`): Strapi checks no attribute name at start and
 * serves it under its own name, its column lodash's snakeCase of it (`ano`: accents go). Its
 * Prisma field (and a link, morph or JSON column's) is an ASCII spelling (ir/names.ts prismaFieldNames).
 */
const unicodeAttributeNamePattern = /^\p{L}[\p{L}\p{N}_]*$/u;

/**
 * A Strapi 5 project: Strapi 5.54.0 refuses to start with an attribute of a content type or a
 * component whose snake_case name is one of these (`@strapi/core`
 * transform-content-types-to-models: `id`, `ID`, `documentId`, `document_id`, …). Its other
 * reserved names (`@strapi/utils` RESERVED_ATTRIBUTE_NAMES, RESERVED_MODEL_NAMES) are only
 * checked by its admin's content-type builder: a project's files may use them. `status` on a
 * draft-and-publish type is a warning there, and served (`?status=` stays the draft switch).
 */
const strapi5ReservedColumns = ['id', 'document_id'];

/** Every attribute has a known type and options that make sense for it. */
export const attributesRule: ValidationRule = (context) => {
  for (const ct of context.models.contentTypes) checkAttributes(context, ct, 'content type');
  for (const component of context.models.components) checkAttributes(context, component, 'component');
};

/** customFields.json maps custom field uids to the types they store. */
export const customFieldsRule: ValidationRule = ({ models, report }) => {
  const file = models.customFields;
  if (!file) return;
  if (!isPlainObject(file.json)) {
    report(file, '', `${customFieldsFile} must be an object mapping custom field uids to the types they store, e.g. {"plugin::color-picker.color": "string"}`);
    return;
  }
  for (const [uid, type] of Object.entries(file.json)) {
    if (!customFieldUidPattern.test(uid)) report(file, pointer(uid), `"${uid}" is not a custom field uid like "plugin::color-picker.color" or "global::my-field"`);
    if (!isCustomFieldType(type)) {
      const hint = typeof type === 'string' ? didYouMean(type, customFieldTypes) : '';
      report(file, pointer(uid), `custom field "${uid}": ${JSON.stringify(type)} is not a type a custom field stores (one of ${customFieldTypes.join(', ')}).${hint}`);
    }
  }
};

function checkAttributes(
  context: ValidationContext,
  model: RawFile & { uid: string },
  kind: 'content type' | 'component',
): void {
  const columns = new Map<string, string>();
  const strapi5 = context.models.project !== undefined && strapiMajor(context.models.project.strapiVersion) >= 5;
  const draftAndPublish = isPlainObject(model.json) && isPlainObject(model.json.options) && model.json.options.draftAndPublish === true;
  // Strapi keeps a type's morphToOne in two columns of its table, whatever the attribute's name.
  const morphToOne = Object.entries(attributesOf(model.json)).filter(([, a]) => isPlainObject(a) && a.type === 'relation' && a.relation === 'morphToOne');
  if (kind === 'content type') {
    // Strapi 5's identity (docs/strapi5.md "Identity"): every content type's table has it.
    columns.set(documentIdColumn, documentIdPrismaField);
    for (const [name] of morphToOne.slice(0, 1)) for (const column of morphToOneColumns) columns.set(column, name);
    for (const [name] of morphToOne.slice(1)) {
      context.report(model, pointer('attributes', name, 'relation'), `${where(model, kind, name)}: a content type has at most one morphToOne relation: Strapi keeps it in the table's columns ${morphToOneColumns.join(' and ')}, which "${morphToOne[0]![0]}" already uses (Strapi does not start: duplicate column)`);
    }
  }
  for (const [name, attribute] of Object.entries(attributesOf(model.json))) {
    const at = (...rest: string[]) => pointer('attributes', name, ...rest);
    const owner = where(model, kind, name);
    const report = (rest: string[], message: string) => context.report(model, at(...rest), `${owner}: ${message}`);

    if (!attributeNamePattern.test(name) && !unicodeAttributeNamePattern.test(name)) {
      report([], 'attribute names must start with a letter and contain only letters, digits and _');
      continue;
    }
    if (strapi5 && strapi5ReservedColumns.includes(snakeCase(name))) {
      // Strapi 5's own words (it stops at start).
      report([], `The attribute "${name}" is reserved and cannot be used in a model. Please rename "${modelNameOf(model, kind)}" attribute "${name}" to something else. (Strapi 5 does not start with it.)`);
      continue;
    }
    if (strapi5 && kind === 'content type' && draftAndPublish && snakeCase(name) === 'status') {
      context.warn(model, at(), `${owner}: The attribute name '${name}' on content type '${model.uid}' is reserved when 'draftAndPublish' is enabled. It conflicts with the Document Service / REST 'status' query parameter. Rename the attribute or disable the 'draftAndPublish' option. (Strapi 5's warning: the attribute is served, and written and filtered as any other; the v5 mount's \`?status=\` stays the draft/published switch.)`);
    }
    if (strapi5 && kind === 'content type' && !(model as { plugin?: string }).plugin && (i18nAttributeNames as readonly string[]).includes(name)) {
      // Strapi 5 starts; its i18n replaces the attribute with its own (ir/i18n.ts withStrapi5ReplacedAttributes).
      const localized = isLocalizedType(model.json);
      context.warn(model, at(), `${owner}: Strapi 5 replaces a content type's own "${name}" with its i18n field: ${localized ? `the document's ${name === 'locale' ? 'locale' : 'localizations'}, as on every localized type` : name === 'locale' ? 'a private string, written from a body but never answered, and refused in filters, sort and fields (the type is not localized)' : 'a private relation, never answered nor written (the type is not localized)'}; served so here`);
      continue;
    }
    if (strapi5 && kind === 'content type' && !(model as { plugin?: string }).plugin && strapi5CoreAttributeNames.includes(name)) {
      // Strapi 5 starts; its core replaces the attribute with its own (ir/i18n.ts withStrapi5ReplacedAttributes).
      context.warn(model, at(), `${owner}: Strapi 5 replaces a content type's own "${name}" with its own ${name.endsWith('By') ? 'creator field (a relation to admin::user)' : 'timestamp'}; served so here, as on every type`);
      continue;
    }
    if (reservedAttributeNames.includes(name) || (kind === 'content type' && name === documentIdPrismaField)) {
      report([], `"${name}" is reserved (contentgen adds ${name} itself)`);
      continue;
    }
    const column = snakeCase(name);
    const clash = columns.get(column);
    if (clash && morphToOne.some(([n]) => n === clash) && (morphToOneColumns as readonly string[]).includes(column)) report([], `its column "${column}" is one of the columns of the morphToOne relation "${clash}" (Strapi keeps it in ${morphToOneColumns.join(' and ')}): rename it`);
    else if (clash) report([], `its column "${column}" is also the column of attribute "${clash}"`);
    columns.set(column, name);

    if (!isPlainObject(attribute)) {
      report([], 'an attribute must be an object like {"type": "string"}');
      continue;
    }
    if (typeof attribute.type !== 'string') {
      report(['type'], 'missing "type"');
      continue;
    }
    let type: string = attribute.type;
    if (!isScalarType(type) && !(nonScalarTypes as readonly string[]).includes(type)) {
      report(['type'], `unknown type "${type}".${didYouMean(type, [...scalarTypeNames, ...nonScalarTypes])}`);
      continue;
    }
    if (type === 'customField') {
      const uid = attribute.customField;
      if (typeof uid !== 'string' || uid === '') {
        report(['customField'], 'missing "customField" (the custom field\'s uid, e.g. "plugin::color-picker.color")');
        continue;
      }
      const plugin = /^plugin::([^.]+)\./.exec(uid)?.[1];
      const projectFields = context.models.projectCustomFields;
      if (plugin && context.models.project && projectFields && !installsPlugin(projectFields, plugin)) {
        // Strapi: "Could not find Custom Field: <uid>" at start.
        report(
          ['customField'],
          `custom field "${uid}": the project does not install plugin "${plugin}" (no dependency of package.json, nor src/plugins/${plugin}, provides it), and Strapi refuses to start without it ("Could not find Custom Field"); add the plugin's package to package.json`,
        );
        continue;
      }
      const resolved = resolveCustomField(context.models, uid);
      if (resolved.source === 'unknown') {
        context.warn(
          model,
          at('customField'),
          `${owner}: custom field "${uid}"${plugin ? ` of plugin "${plugin}"` : ''}: contentgen does not know which type it stores, so it is stored as json (every value kept as sent); if it stores something else, say so in ${context.models.project ? `src/${customFieldsFile}` : `${customFieldsFile} beside the models`}: "${uid}": "string"`,
        );
      }
      const stored = resolved.type;
      type = stored; // validated as the type it stores
    }
    // configurable and visible are the admin panel's own (Strapi ignores them when serving).
    for (const flag of ['required', 'unique', 'private', 'repeatable', 'multiple', 'writable']) {
      if (attribute[flag] !== undefined && typeof attribute[flag] !== 'boolean') report([flag], `${flag} must be true or false`);
    }
    if (isScalarType(type)) checkScalarOptions(attribute, type, report, kind, (rest, message) => context.warn(model, at(...rest), `${owner}: ${message}`));
    else if (type === 'blocks') {
      if (attribute.default !== undefined && attribute.default !== null && !Array.isArray(attribute.default)) report(['default'], `default ${JSON.stringify(attribute.default)} does not fit type "blocks" (a list of blocks)`);
    } else if (type === 'relation') checkRelation(attribute, kind, report);
    else if (type === 'media') {
      const allowed = attribute.allowedTypes;
      if (allowed !== undefined && (!Array.isArray(allowed) || allowed.some((t) => !mediaTypes.includes(t as string)))) {
        report(['allowedTypes'], `allowedTypes must be a list of ${mediaTypes.map((t) => `"${t}"`).join(', ')}`);
      }
    } else if (type === 'component') {
      if (typeof attribute.component !== 'string') report(['component'], 'missing "component" (e.g. "shared.seo")');
      checkCount(attribute, report);
    } else if (type === 'dynamiczone') {
      if (kind === 'component') report(['type'], 'dynamic zones are not allowed inside components');
      const components = attribute.components;
      if (!Array.isArray(components) || components.length === 0 || components.some((c) => typeof c !== 'string')) {
        report(['components'], 'a dynamic zone needs a non-empty "components" list of component uids');
      }
      checkCount(attribute, report);
    }
  }
}

type Report = (rest: string[], message: string) => void;

function checkScalarOptions(attribute: Record<string, unknown>, type: string, report: Report, kind: 'content type' | 'component', warn: Report): void {
  // Strapi applies these only when they have the right shape and ignores them otherwise: so does contentgen, with a warning.
  for (const key of ['minLength', 'maxLength'] as const) {
    const value = attribute[key];
    if (value !== undefined && !isLength(value)) warn([key], `${key} ${JSON.stringify(value)} is not a non-negative integer: ignored, as Strapi ignores it`);
  }
  if (isLength(attribute.minLength) && isLength(attribute.maxLength) && attribute.minLength > attribute.maxLength) {
    warn(['minLength'], 'minLength is greater than maxLength: no value but an empty one can be written (as in Strapi)');
  }
  for (const key of ['min', 'max'] as const) {
    const value = attribute[key];
    if (value !== undefined && !isBound(value, type)) {
      warn([key], `${key} ${JSON.stringify(value)} is not ${type === 'biginteger' ? 'an integer or a string of digits' : 'a number'}: ignored, as Strapi ignores it`);
    }
  }
  if (typeof attribute.min === 'number' && typeof attribute.max === 'number' && attribute.min > attribute.max) {
    warn(['min'], 'min is greater than max: no value can be written (as in Strapi)');
  }
  if (attribute.regex !== undefined) {
    const problem = regexProblem(attribute.regex);
    if (problem) warn(['regex'], `regex is ignored: ${problem} (Strapi starts, then fails every write of the attribute)`);
  }
  if (type === 'enumeration') {
    const values = attribute.enum;
    if (!Array.isArray(values) || values.length === 0) {
      report(['enum'], 'an enumeration needs a non-empty "enum" list of values');
    } else if (values.some((v) => typeof v !== 'string' || v === '')) {
      report(['enum'], 'enumeration values must be non-empty strings');
    } else {
      const seen = new Set<string>();
      for (const value of values as string[]) {
        if (seen.has(value)) report(['enum'], `enumeration value "${value}" is listed twice`);
        seen.add(value);
      }
      // Strapi's own start-time check of a content type (plugins or not): every value regressed
      // to a GraphQL name (toRegressedEnumValue), none twice. A component's are GraphQL-only
      // (ir/graphql-exclusions.ts).
      if (kind === 'content type') {
        const regressed = new Map<string, string>();
        for (const value of new Set(values as string[])) {
          const name = regressedEnumValue(value);
          if (!graphqlNamePattern.test(name)) {
            const problem = name === '' ? 'has no letter or digit Strapi can spell' : `becomes "${name}", which starts with a digit`;
            report(['enum'], `enumeration value "${value}" ${problem}; Strapi refuses to start on it ("Invalid enumeration value"): ${name === '' ? 'give it a letter' : 'begin it with a letter'}`);
            continue;
          }
          const first = regressed.get(name);
          if (first !== undefined) report(['enum'], `enumeration values "${first}" and "${value}" are both "${name}" once normalized; Strapi refuses to start on it ("collide when normalized"): make them differ in letters or digits`);
          else regressed.set(name, value);
        }
      }
      if (attribute.default !== undefined && attribute.default !== null && !values.includes(attribute.default)) {
        report(['default'], `default "${String(attribute.default)}" is not one of the enum values`);
      }
    }
  }
  if (attribute.default !== undefined && attribute.default !== null) checkDefault(attribute.default, type, report);
}

function checkDefault(value: unknown, type: string, report: Report): void {
  const ok: Record<string, (v: unknown) => boolean> = {
    integer: (v) => Number.isInteger(v),
    float: (v) => typeof v === 'number',
    decimal: (v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)),
    biginteger: (v) => Number.isInteger(v) || (typeof v === 'string' && /^-?\d+$/.test(v)),
    boolean: (v) => typeof v === 'boolean',
    json: () => true,
    array: (v) => Array.isArray(v),
  };
  const check = ok[type] ?? ((v: unknown) => typeof v === 'string');
  if (!check(value)) report(['default'], `default ${JSON.stringify(value)} does not fit type "${type}"`);
}

function checkRelation(attribute: Record<string, unknown>, kind: string, report: Report): void {
  const relation = attribute.relation;
  if (typeof relation === 'string' && (morphRelationKinds as readonly string[]).includes(relation)) {
    checkMorphRelation(attribute, relation, kind, report);
    return;
  }
  if (typeof relation !== 'string' || !(relationKinds as readonly string[]).includes(relation)) {
    const hint = typeof relation === 'string' ? didYouMean(relation, [...relationKinds, ...morphRelationKinds]) : '';
    report(['relation'], `relation must be one of ${[...relationKinds, ...morphRelationKinds].join(', ')}.${hint}`);
  }
  if (typeof attribute.target !== 'string') report(['target'], 'missing "target" (e.g. "api::author.author")');
  for (const key of ['inversedBy', 'mappedBy'] as const) {
    if (attribute[key] !== undefined && typeof attribute[key] !== 'string') report([key], `${key} must be the name of an attribute of the target`);
  }
  if (kind === 'component' && (attribute.inversedBy !== undefined || attribute.mappedBy !== undefined)) {
    report(['relation'], 'relations inside components are one-way: remove inversedBy/mappedBy');
  }
}

/**
 * Polymorphic relations (Strapi v4's database layer, metadata/relations): morphToOne and
 * morphToMany link to entries of any type (no target); morphOne and morphMany are their other
 * side, a `target` type and the morphTo attribute of it they read (`morphBy`, checked in
 * references.ts). One message per problem.
 */
function checkMorphRelation(attribute: Record<string, unknown>, relation: string, kind: string, report: Report): void {
  if (kind === 'component') {
    report(['relation'], `polymorphic relation "${relation}" inside a component is not supported: contentgen keeps a component's relations as ids in its JSON, which cannot say which type an id belongs to; declare it on a content type`);
    return;
  }
  const morphTo = relation === 'morphToOne' || relation === 'morphToMany';
  if (morphTo) {
    if (attribute.target !== undefined) {
      report(['target'], `a ${relation} relation links entries of any type: remove "target" (contentgen does not serve Strapi's GraphQL union of a target list)`);
    }
  } else {
    if (typeof attribute.target !== 'string') report(['target'], `missing "target": a ${relation} relation names the content type whose morphToOne/morphToMany attribute (morphBy) points at this one`);
    if (typeof attribute.morphBy !== 'string' || attribute.morphBy === '') report(['morphBy'], `missing "morphBy": the morphToOne or morphToMany attribute of the target that this ${relation} relation reads`);
  }
  for (const key of ['inversedBy', 'mappedBy', ...(morphTo ? ['morphBy'] : [])]) {
    if (attribute[key] !== undefined) report([key], `${key} does not apply to a ${relation} relation: remove it`);
  }
}

function checkCount(attribute: Record<string, unknown>, report: Report): void {
  for (const key of ['min', 'max'] as const) {
    const value = attribute[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) report([key], `${key} must be a non-negative integer`);
  }
}

/** Strapi's `modelName`: a content type's singular name, a component's file name (`link` of `shared.link`). */
function modelNameOf(model: RawFile & { uid: string }, kind: 'content type' | 'component'): string {
  if (kind === 'component') return model.uid.slice(model.uid.indexOf('.') + 1);
  const info = isPlainObject(model.json) && isPlainObject(model.json.info) ? model.json.info : {};
  return typeof info.singularName === 'string' ? info.singularName : model.uid;
}
