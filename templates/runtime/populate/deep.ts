/**
 * `populate=deep` and `populate=deep,N`: what the community plugin strapi-plugin-populate-deep
 * (3.0.1) adds to Strapi v4's REST API, when the project installs it (src/config.ts,
 * `plugins.populateDeep`).
 *
 * The plugin replaces a read's populate with one built from the model: every relation,
 * media, component and dynamic zone, N levels down (N counts the entry itself: `deep,2` is
 * one level, `deep,1` none; default `defaultDepth`, 5). The object built here is the one it
 * builds, key for key, and then goes through the ordinary populate parser, so permissions
 * (relations to types the caller may not `find` are left out, as Strapi's output sanitizer
 * leaves them out), private fields and the depth limit apply as they do to any populate.
 *
 * What it does, as its code does it:
 * - media: populated, nothing inside (a file's folder is never populated);
 * - components: populated with what is inside, one level less; a dynamic zone populates the
 *   union of what its components hold (one component's `true` adds nothing);
 * - relations: populated with what is inside the target, one level less. To stop cycles it
 *   remembers the table (collectionName) of every content type it enters and skips any
 *   attribute *named* like one of them (`author` → authors: the author's `articles` is
 *   skipped). That memory is shared by the whole walk, in attribute order, and is not
 *   carried into components;
 * - `localizations`: populated one level only;
 * - `createdBy`/`updatedBy` (admin users): skipped (`skipCreatorFields`, default true),
 *   except at the last level, where every relation is just `true`;
 * - the upload file's `related`: skipped.
 */
import type { ComponentMeta, ContentTypeMeta, Registry } from '../meta.js';

export interface PopulateDeepOptions {
  /** Levels when the request gives none (`populate=deep`); the plugin's default is 5. */
  readonly defaultDepth: number;
  /** Leave out relations to admin users (createdBy, updatedBy); the plugin's default is true. */
  readonly skipCreatorFields: boolean;
}

/** A populate object as Strapi's query layer takes it. */
type DeepPopulate = true | { populate: Record<string, DeepPopulate> };

/**
 * The depth a request asks for, when its populate is the plugin's (`deep`, `deep,N`,
 * `populate[0]=deep&populate[1]=N`); undefined otherwise. Strapi splits every string of the
 * parameter on commas (then trims and drops repeats) before the plugin looks at the first.
 */
export function deepRequest(raw: unknown, options: PopulateDeepOptions): number | undefined {
  let items: string[];
  if (typeof raw === 'string') items = raw.split(',').map((s) => s.trim());
  else if (Array.isArray(raw) && raw.every((item): item is string => typeof item === 'string')) {
    items = [...new Set(raw.flatMap((item) => item.split(',').map((s) => s.trim())))];
  } else return undefined;
  if (items[0] !== 'deep') return undefined;
  // JavaScript's number coercion, as the plugin's comparisons do (`deep,abc`: no bound there,
  // bounded here by the populate depth limit).
  const depth = items[1] === undefined ? options.defaultDepth || 5 : Number(items[1]);
  return Number.isNaN(depth) ? Infinity : depth;
}

/**
 * The populate the plugin builds for `owner` at `depth`, or undefined when it populates
 * nothing (`deep,1`, or a type with nothing to populate).
 */
export function deepPopulate(owner: ContentTypeMeta, depth: number, registry: Registry, options: PopulateDeepOptions): Record<string, DeepPopulate> | undefined {
  const built = walk(owner, depth, [], registry, options);
  return built === true || built === undefined ? undefined : built.populate;
}

function walk(owner: ContentTypeMeta | ComponentMeta, depth: number, ignore: string[] | undefined, registry: Registry, options: PopulateDeepOptions): DeepPopulate | undefined {
  if (depth <= 1) return true;
  const populate: Record<string, DeepPopulate> = {};
  if (ignore && 'table' in owner && !ignore.includes(owner.table)) ignore.push(owner.table);
  for (const [name, field] of Object.entries(owner.fields)) {
    if (ignore?.includes(name)) continue;
    if (owner.uid === 'plugin::upload.file' && name === 'related') continue;
    switch (field.kind) {
      case 'component': {
        const component = registry.components.get(field.component);
        if (component) populate[name] = walk(component, depth - 1, undefined, registry, options)!;
        break;
      }
      case 'dynamiczone': {
        let merged: Record<string, unknown> = {};
        for (const uid of field.components) {
          const component = registry.components.get(uid);
          const built = component ? walk(component, depth - 1, undefined, registry, options) : true;
          if (built !== true && built !== undefined) merged = merge(merged, { populate: built.populate });
        }
        populate[name] = Object.keys(merged).length === 0 ? true : (merged as unknown as DeepPopulate);
        break;
      }
      case 'relation': {
        const next = name === 'localizations' && depth > 2 ? 1 : depth - 1;
        let built: DeepPopulate | undefined;
        if (next <= 1) built = true;
        else if (isCreatorRelation(field.target)) built = options.skipCreatorFields ? undefined : true;
        else {
          const target = registry.contentTypes.get(field.target);
          built = target ? walk(target, next, ignore, registry, options) : true;
        }
        if (built) populate[name] = built;
        break;
      }
      case 'media':
        populate[name] = true;
        break;
      case 'scalar':
        break;
    }
  }
  return Object.keys(populate).length === 0 ? true : { populate };
}

/** Admin users (the creator fields' target), which this server does not serve. */
function isCreatorRelation(target: string): boolean {
  return target === 'admin::user';
}

/**
 * lodash's `merge` on these values: objects merge key by key, anything else replaces (so a
 * later `true` replaces an earlier object, and an object replaces an earlier `true`).
 */
function merge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const existing = out[key];
    if (isObject(value)) out[key] = merge(isObject(existing) ? existing : {}, value);
    else if (value !== undefined) out[key] = value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
