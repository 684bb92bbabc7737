/**
 * The registry as the GraphQL schema sees it: content types, components and fields marked
 * `graphql: false` (their Strapi GraphQL names cannot be given, see the generator's
 * ir/graphql-exclusions.ts) are left out, so the schema, its resolvers and their default
 * authorization never name them. REST and the data layer keep the whole registry. Fields
 * pointing at a left-out type are skipped by the schema builder, as for a disabled type.
 */
import type { ComponentMeta, ContentTypeMeta, FieldMeta, Registry } from '../meta.js';

export function graphqlRegistry(registry: Registry): Registry {
  const leftOut = new Set<string>();
  const keep = <T extends ContentTypeMeta | ComponentMeta>(owners: ReadonlyMap<string, T>): Map<string, T> => {
    const out = new Map<string, T>();
    for (const [uid, owner] of owners) {
      if (owner.graphql === false) {
        leftOut.add(uid);
        continue;
      }
      const fields = Object.values(owner.fields) as FieldMeta[];
      if (!fields.some((f) => f.graphql === false)) {
        out.set(uid, owner);
        continue;
      }
      for (const f of fields) if (f.graphql === false) leftOut.add(`${uid}.${f.name}`);
      out.set(uid, { ...owner, fields: Object.fromEntries(fields.filter((f) => f.graphql !== false).map((f) => [f.name, f])) });
    }
    return out;
  };
  const contentTypes = keep(registry.contentTypes);
  const components = keep(registry.components);
  if (leftOut.size === 0) return registry;
  return { ...registry, contentTypes, components, graphqlLeftOut: leftOut };
}
