import { resolveRelations } from '../../ir/relations.js';
import { adminUserUid } from '../../ir/build-ir.js';
import { didYouMean } from '../model-error.js';
import { installsPlugin } from '../../load/load-custom-fields.js';
import { attributesOf, isPlainObject, pointer, where, type ValidationRule } from '../context.js';

/** Plugins whose content types contentgen serves itself: a target of theirs must exist. */
const builtInPlugins = ['upload', 'users-permissions', 'i18n'];

/**
 * Relation targets and components exist (or are a type of an installed plugin, left out); two-way relations are stored as Strapi stores them
 * (ir/relations.ts: what Strapi refuses is an error, what is ambiguous a warning); components
 * do not contain themselves.
 */
export const referencesRule: ValidationRule = ({ models, report, warn }) => {
  const contentTypes = new Map(models.contentTypes.map((ct) => [ct.uid, ct]));
  const componentUids = models.components.map((c) => c.uid);
  const owners = [
    ...models.contentTypes.map((model) => ({ model, kind: 'content type' as const })),
    ...models.components.map((model) => ({ model, kind: 'component' as const })),
  ];

  for (const { model, kind } of owners) {
    for (const [name, attribute] of Object.entries(attributesOf(model.json))) {
      if (!isPlainObject(attribute)) continue;
      const owner = where(model, kind, name);
      // A morphTo relation has no target (a `target` on one is reported by the attribute rules).
      const morphTo = attribute.relation === 'morphToOne' || attribute.relation === 'morphToMany';
      if (attribute.type === 'relation' && typeof attribute.target === 'string' && !morphTo) {
        if (attribute.target === adminUserUid) {
          warn(model, pointer('attributes', name, 'target'), `${owner}: a relation to "admin::user" (the admin panel's users) is never served by Strapi's Content API, so it is left out of answers, populate and writes; contentgen keeps no admin users, so nothing stores it`);
          continue;
        }
        const target = contentTypes.get(attribute.target);
        const plugin = /^plugin::([^.]+)\./.exec(attribute.target)?.[1];
        if (!target && plugin && !builtInPlugins.includes(plugin) && models.project && models.projectCustomFields && installsPlugin(models.projectCustomFields, plugin)) {
          // Strapi starts: the installed plugin registers the type. contentgen does not carry a
          // plugin's own content types over, so the relation is left out, as admin::user's is.
          warn(model, pointer('attributes', name, 'target'), `${owner}: relation target "${attribute.target}" is a content type of plugin "${plugin}", which the project installs and contentgen does not carry over: the relation is left out of answers, populate and writes (Strapi serves it with the plugin's type)`);
          continue;
        }
        if (!target) {
          report(model, pointer('attributes', name, 'target'), `${owner}: relation target "${attribute.target}" does not exist.${didYouMean(attribute.target, [...contentTypes.keys()])}`);
          continue;
        }
        const morphBy = attribute.morphBy;
        if ((attribute.relation === 'morphOne' || attribute.relation === 'morphMany') && typeof morphBy === 'string' && morphBy !== '') {
          const back = attributesOf(target.json)[morphBy];
          if (!isPlainObject(back) || back.type !== 'relation' || (back.relation !== 'morphToOne' && back.relation !== 'morphToMany')) {
            const candidates = Object.entries(attributesOf(target.json)).filter(([, a]) => isPlainObject(a) && a.type === 'relation' && (a.relation === 'morphToOne' || a.relation === 'morphToMany')).map(([n]) => n);
            const what = back === undefined ? `"${attribute.target}" has no attribute "${morphBy}"` : `"${attribute.target}".${morphBy} is not a morphToOne or morphToMany relation`;
            report(model, pointer('attributes', name, 'morphBy'), `${owner}: morphBy "${morphBy}": ${what} (${candidates.length ? `its morph relations: ${candidates.join(', ')}` : 'it has no morphToOne or morphToMany relation'}; Strapi fails on it)`);
          }
        }
      }
      const refs: [string, string[]][] = [];
      if (attribute.type === 'component' && typeof attribute.component === 'string') refs.push([attribute.component, ['component']]);
      if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components)) {
        attribute.components.forEach((c, i) => typeof c === 'string' && refs.push([c, ['components', String(i)]]));
      }
      for (const [uid, at] of refs) {
        if (!componentUids.includes(uid)) {
          report(model, pointer('attributes', name, ...at), `${owner}: unknown component "${uid}".${didYouMean(uid, componentUids)}`);
        }
      }
    }
  }

  const byUid = new Map(models.contentTypes.map((ct) => [ct.uid, ct]));
  for (const note of resolveRelations(models.contentTypes).notes) {
    const model = byUid.get(note.uid)!;
    const message = `${where(model, 'content type', note.attribute)}: ${note.message}`;
    (note.level === 'error' ? report : warn)(model, pointer('attributes', note.attribute, note.key), message);
  }

  // A component reachable from itself would nest forever.
  const children = new Map(
    models.components.map((c) => [
      c.uid,
      Object.values(attributesOf(c.json))
        .filter((a) => isPlainObject(a) && a.type === 'component' && typeof a.component === 'string')
        .map((a) => (a as { component: string }).component),
    ]),
  );
  for (const component of models.components) {
    const seen = new Set<string>();
    const stack = [...(children.get(component.uid) ?? [])];
    while (stack.length) {
      const uid = stack.pop()!;
      if (uid === component.uid) {
        report(component, pointer('attributes'), `${where(component, 'component')}: contains itself through nested components`);
        break;
      }
      if (seen.has(uid)) continue;
      seen.add(uid);
      stack.push(...(children.get(uid) ?? []));
    }
  }
};
