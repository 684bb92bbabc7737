import { kebabCasePattern } from '../../ir/names.js';
import { isPlainObject, pointer, where, type ValidationRule } from '../context.js';

/**
 * Each content-type file is an object with a valid kind and kebab-case singular and plural
 * names (Strapi refuses to start otherwise); each component has a collectionName.
 */
export const contentTypeShapeRule: ValidationRule = ({ models, report }) => {
  for (const ct of models.contentTypes) {
    const json = ct.json;
    const owner = where(ct, 'content type');
    if (!isPlainObject(json)) {
      report(ct, '', `${owner}: the file must contain a JSON object`);
      continue;
    }
    if (json.kind !== undefined && json.kind !== 'collectionType' && json.kind !== 'singleType') {
      report(ct, pointer('kind'), `${owner}: kind must be "collectionType" or "singleType", got ${JSON.stringify(json.kind)}`);
    }
    const info = json.info;
    if (!isPlainObject(info)) {
      report(ct, pointer('info'), `${owner}: missing "info" (singularName, pluralName, displayName)`);
    } else {
      for (const key of ['singularName', 'pluralName'] as const) {
        const value = info[key];
        if (typeof value !== 'string' || value === '') {
          report(ct, pointer('info', key), `${owner}: missing info.${key}`);
        } else if (!kebabCasePattern.test(value)) {
          report(ct, pointer('info', key), `${owner}: info.${key} "${value}" must be kebab-case (e.g. "blog-post")`);
        }
      }
      if (typeof info.singularName === 'string' && info.singularName === info.pluralName) {
        report(ct, pointer('info', 'pluralName'), `${owner}: info.singularName and info.pluralName must differ`);
      }
      if (info.displayName !== undefined && typeof info.displayName !== 'string') {
        report(ct, pointer('info', 'displayName'), `${owner}: info.displayName must be a string`);
      }
    }
    if (json.collectionName !== undefined && !isTableName(json.collectionName)) {
      report(ct, pointer('collectionName'), `${owner}: collectionName must match ${tableNamePattern}`);
    }
    if (json.options !== undefined && !isPlainObject(json.options)) {
      report(ct, pointer('options'), `${owner}: options must be an object`);
    } else if (isPlainObject(json.options)) {
      for (const key of ['draftAndPublish', 'populateCreatorFields'] as const) {
        const value = json.options[key];
        if (value !== undefined && typeof value !== 'boolean') {
          report(ct, pointer('options', key), `${owner}: options.${key} must be true or false`);
        }
      }
    }
    if (!isPlainObject(json.attributes)) {
      report(ct, pointer('attributes'), `${owner}: missing "attributes" object`);
    }
  }
  for (const component of models.components) {
    const json = component.json;
    const owner = where(component, 'component');
    if (!isPlainObject(json)) {
      report(component, '', `${owner}: the file must contain a JSON object`);
      continue;
    }
    if (json.collectionName === undefined) {
      report(component, pointer('collectionName'), `${owner}: missing collectionName (e.g. "components_${component.uid.replace('.', '_')}s")`);
    } else if (!isTableName(json.collectionName)) {
      report(component, pointer('collectionName'), `${owner}: collectionName must match ${tableNamePattern}`);
    }
    if (!isPlainObject(json.attributes)) {
      report(component, pointer('attributes'), `${owner}: missing "attributes" object`);
    }
  }
};

/**
 * Table names are used as written (Strapi's `collectionName`), quoted in every statement: ASCII
 * letters, digits, `_` and `-` (`components_components_utrecht-logo_buttons`). No length limit:
 * the database's is applied to the names (ir/identifiers.ts).
 */
const tableNamePattern = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

function isTableName(value: unknown): boolean {
  return typeof value === 'string' && tableNamePattern.test(value);
}
