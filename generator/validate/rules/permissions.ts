import { pluginActions } from '../../ir/plugins.js';
import { createLocalizationAction, isLocalizedType } from '../../ir/i18n.js';
import { didYouMean } from '../model-error.js';
import { isPlainObject, pointer, type ValidationRule } from '../context.js';

export const contentActions = ['find', 'findOne', 'create', 'update', 'delete'] as const;
const roleTypePattern = /^[a-z][a-z0-9-_]*$/;

/**
 * permissions.json: `{ "<role type>": ["api::article.article.find", ...] }`, or for a role
 * with a name and description of its own (a role `contentgen import` brought from Strapi)
 * `{ "<role type>": { "name": "Editor", "description": "…", "actions": [...] } }`. Every
 * content action must name an existing content type and one of its five actions, or the
 * handler of one of its custom routes (src/api/<name>.ts).
 */
export const permissionsRule: ValidationRule = ({ models, report }) => {
  const file = models.permissions;
  if (!file) return;
  if (!isPlainObject(file.json)) {
    report(file, '', 'permissions.json must be an object mapping role types to lists of actions');
    return;
  }
  const uids = models.contentTypes.map((ct) => ct.uid);
  for (const [role, entry] of Object.entries(file.json)) {
    if (!roleTypePattern.test(role)) {
      report(file, pointer(role), `role type "${role}" must be lower-case (letters, digits, - and _)`);
    }
    const described = isPlainObject(entry);
    const actions = described ? entry.actions : entry;
    if (described) {
      for (const key of Object.keys(entry)) if (!['name', 'description', 'actions'].includes(key)) report(file, pointer(role, key), `role "${role}": unknown key "${key}" (name, description, actions)`);
      for (const key of ['name', 'description'] as const) if (entry[key] !== undefined && typeof entry[key] !== 'string') report(file, pointer(role, key), `role "${role}": ${key} must be a string`);
    }
    if (!Array.isArray(actions)) {
      report(file, described ? pointer(role, 'actions') : pointer(role), `role "${role}": expected a list of action strings${described ? '' : ', or { name, description, actions }'}`);
      continue;
    }
    actions.forEach((action, i) => {
      const at = described ? pointer(role, 'actions', i) : pointer(role, i);
      if (typeof action !== 'string') return report(file, at, `role "${role}": actions must be strings`);
      if (action.startsWith('plugin::')) {
        if (!pluginActions.includes(action)) {
          report(file, at, `role "${role}": unknown plugin action "${action}".${didYouMean(action, pluginActions)}`);
        }
        return;
      }
      const match = /^(api::[a-z0-9-]+\.[a-z0-9-]+)\.([A-Za-z]+)$/.exec(action);
      if (!match) return report(file, at, `role "${role}": "${action}" is not an action like "api::article.article.find"`);
      const [, uid, verb] = match as unknown as [string, string, string];
      if (!uids.includes(uid)) report(file, at, `role "${role}": unknown content type "${uid}" in "${action}".${didYouMean(uid, uids)}`);
      const custom = models.customActions?.get(uid) ?? [];
      const localized = isLocalizedType(models.contentTypes.find((ct) => ct.uid === uid)?.json);
      const known = [...contentActions, ...(localized ? [createLocalizationAction] : []), ...custom];
      if (!known.includes(verb)) {
        const customNote = custom.length ? '' : `, or a custom route's handler declared in src/api`;
        report(file, at, `role "${role}": unknown action "${verb}" in "${action}" (one of ${known.join(', ')}${customNote}).${didYouMean(verb, known)}`);
      }
    });
  }
};
