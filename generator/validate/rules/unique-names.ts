import { internalTables } from '../../ir/plugins.js';
import { isPlainObject, pointer, type ValidationRule } from '../context.js';

/**
 * Names that become routes and tables must not collide: two types with the same plural name
 * would answer the same REST path (Strapi refuses them too), two with one table would share
 * it. (Everything else contentgen names is made distinct in ir/names.ts; Strapi's GraphQL
 * names are checked by graphql-names.ts.)
 */
export const uniqueNamesRule: ValidationRule = ({ models, report }) => {
  // The users-permissions plugin serves /api/users and /api/users-permissions itself.
  const routeOwners = new Map<string, string>([
    ['users', 'plugin::users-permissions.user'],
    ['users-permissions', 'plugin::users-permissions'],
    ['upload', 'plugin::upload'],
    ['auth', 'plugin::users-permissions'],
  ]);
  const tableOwners = new Map<string, string>(internalTables.map((table) => [table, 'contentgen']));
  for (const ct of models.contentTypes) {
    if (!isPlainObject(ct.json) || !isPlainObject(ct.json.info)) continue;
    const info = ct.json.info;
    // Plugin types route and name themselves (/api/users, UsersPermissionsUser); only their tables must not clash.
    for (const key of ct.plugin ? ([] as const) : (['singularName', 'pluralName'] as const)) {
      const name = info[key];
      if (typeof name !== 'string') continue;
      const owner = routeOwners.get(name);
      if (owner && owner !== ct.uid) {
        report(ct, pointer('info', key), `content type "${ct.uid}": ${key} "${name}" is already used by "${owner}"`);
      } else {
        routeOwners.set(name, ct.uid);
      }
    }
    const table = typeof ct.json.collectionName === 'string' ? ct.json.collectionName : typeof info.pluralName === 'string' ? info.pluralName.replace(/-/g, '_') : undefined;
    if (table) claimTable(table, ct.uid, () => report(ct, pointer('collectionName'), `content type "${ct.uid}": table "${table}" is already used by ${owner(table)}`));
    // Drafts of published entries (docs/strapi5.md "Drafts") live in `<table>_drafts`.
    const drafts = table && isPlainObject(ct.json.options) && ct.json.options.draftAndPublish === true ? `${table}_drafts` : undefined;
    if (drafts) claimTable(drafts, `drafts of ${ct.uid}`, () => report(ct, pointer('collectionName'), `content type "${ct.uid}": the table of its drafts "${drafts}" is already used by ${owner(drafts)}`));
    // Their relations and media in `<table>_drafts_lnk` (claimed for every draft & publish type: a cheap reservation).
    const draftLinks = drafts ? `${table}_drafts_lnk` : undefined;
    if (draftLinks) claimTable(draftLinks, `drafts of ${ct.uid}`, () => report(ct, pointer('collectionName'), `content type "${ct.uid}": the table of its drafts' links "${draftLinks}" is already used by ${owner(draftLinks)}`));
  }
  for (const component of models.components) {
    if (!isPlainObject(component.json) || typeof component.json.collectionName !== 'string') continue;
    const table = component.json.collectionName;
    claimTable(table, component.uid, () => report(component, pointer('collectionName'), `component "${component.uid}": table "${table}" is already used by ${owner(table)}`));
  }

  function owner(table: string): string {
    const uid = tableOwners.get(table.toLowerCase())!;
    return uid === 'contentgen' ? 'contentgen itself (its own table)' : uid.startsWith('drafts of ') ? `the ${uid}` : `"${uid}"`;
  }

  function claimTable(table: string, uid: string, onClash: () => void): void {
    const key = table.toLowerCase();
    if (tableOwners.has(key)) onClash();
    else tableOwners.set(key, uid);
  }
};
