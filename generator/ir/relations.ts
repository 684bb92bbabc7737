/**
 * Where each relation of a content type is stored, decided as Strapi v4's database layer
 * decides it (packages/core/database/src/metadata/relations.ts), so that models Strapi
 * starts with build, and store their links where Strapi would:
 *
 *  - Content types are read in Strapi's order (api folders, then content-type folders, each
 *    sorted; plugin types after them), their attributes in declared order.
 *  - An owning side (a one-way relation, or one with `inversedBy`) gets its own link table
 *    `<table>_<attribute>_links`; with `inversedBy`, the attribute it names is then set to read
 *    that table from the other side — whatever it was set to before. The last writer wins:
 *      · two relations `inversedBy` each other (both owning): the side read last owns the
 *        table, the other reads it, as if it said `mappedBy`;
 *      · two relations `inversedBy` one attribute: each keeps its own table, the attribute
 *        reads the table of the one read last;
 *  - A `mappedBy` side that no relation is `inversedBy` gets nothing: Strapi keeps no storage
 *    for it (it reads empty; writes to it are ignored).
 *  - Strapi refuses to start on a oneToMany with `inversedBy`, a manyToOne with only
 *    `mappedBy`, and an `inversedBy` naming no relation attribute of the target: errors here.
 *
 * Ambiguous shapes build with a warning saying which table is used.
 */
import type { RawContentType } from '../load/load-models.js';
import { snakeCase } from './names.js';

export interface AttributeRef {
  readonly uid: string;
  readonly attribute: string;
}

export type RelationStorage =
  /** This attribute's own link table. */
  | { readonly kind: 'own' }
  /** The link table of another attribute, read from the other side. */
  | { readonly kind: 'inverse'; readonly of: AttributeRef }
  /** No storage at all (a mappedBy side nothing is inversedBy). */
  | { readonly kind: 'none' };

export interface RelationNote {
  readonly level: 'error' | 'warning';
  readonly uid: string;
  readonly attribute: string;
  /** The attribute's option the note is about (its JSON pointer's last segment). */
  readonly key: 'relation' | 'inversedBy' | 'mappedBy';
  readonly message: string;
}

export interface RelationResolution {
  /** The storage of a content type's relation attribute; undefined for anything else. */
  storage(uid: string, attribute: string): RelationStorage | undefined;
  readonly notes: readonly RelationNote[];
}

const storedKinds = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'];

/**
 * The columns of a content type's own table its morphToOne relation is stored in, whatever the
 * attribute is called (Strapi v4 metadata/relations createMorphToOne): so one per type.
 */
export const morphToOneColumns = ['target_id', 'target_type'] as const;

const inverseKind: Readonly<Record<string, string>> = {
  oneToOne: 'oneToOne',
  oneToMany: 'manyToOne',
  manyToOne: 'oneToMany',
  manyToMany: 'manyToMany',
};

type Json = Record<string, unknown>;

interface Relation {
  readonly uid: string;
  readonly name: string;
  readonly relation: string;
  readonly target: string;
  readonly inversedBy?: string;
  readonly mappedBy?: string;
}

const keyOf = (uid: string, attribute: string) => `${uid}\u0000${attribute}`;
const show = (ref: AttributeRef) => `"${ref.uid}".${ref.attribute}`;

/** Link table name of an owning side, as Strapi names it (for messages). */
export function linkTableName(ownerTable: string, attribute: string): string {
  return snakeCase(`${ownerTable}_${attribute}_links`);
}

export function resolveRelations(contentTypes: readonly RawContentType[]): RelationResolution {
  const types = new Map(contentTypes.map((ct) => [ct.uid, ct]));
  const relations = new Map<string, Relation>();
  const attributesOf = (uid: string): Json => {
    const json = types.get(uid)?.json as Json | undefined;
    return json && typeof json.attributes === 'object' && json.attributes !== null ? (json.attributes as Json) : {};
  };
  const relationAt = (uid: string, name: string): Relation | undefined => relations.get(keyOf(uid, name));

  // Strapi's order: user types as loaded (sorted folders), plugin types last.
  const order = [...contentTypes.filter((ct) => !ct.plugin), ...contentTypes.filter((ct) => ct.plugin)];
  for (const ct of order) {
    for (const [name, value] of Object.entries(attributesOf(ct.uid))) {
      const a = value as Json;
      if (typeof a !== 'object' || a === null || a.type !== 'relation') continue;
      if (typeof a.relation !== 'string' || !storedKinds.includes(a.relation)) continue;
      if (typeof a.target !== 'string' || !types.has(a.target)) continue;
      relations.set(keyOf(ct.uid, name), {
        uid: ct.uid,
        name,
        relation: a.relation,
        target: a.target,
        ...(typeof a.inversedBy === 'string' ? { inversedBy: a.inversedBy } : {}),
        ...(typeof a.mappedBy === 'string' ? { mappedBy: a.mappedBy } : {}),
      });
    }
  }

  const notes: RelationNote[] = [];
  const note = (level: RelationNote['level'], r: Relation, key: RelationNote['key'], message: string) =>
    notes.push({ level, uid: r.uid, attribute: r.name, key, message });
  const final = new Map<string, RelationStorage>();
  /** Owners that set each attribute to read their table, in the order Strapi does it. */
  const received = new Map<string, Relation[]>();
  const refused = new Set<string>();
  /** Owners inversedBy an attribute that targets another type, and when Strapi reads each owner. */
  const mistargeted: { r: Relation; at: number }[] = [];
  const lastRead = new Map<string, number>();
  let readOrder = 0;

  for (const r of relations.values()) {
    const bidirectional = r.inversedBy !== undefined || r.mappedBy !== undefined;
    const owner = !bidirectional || r.inversedBy !== undefined;
    if (r.relation === 'oneToMany' && bidirectional && owner) {
      note('error', r, 'inversedBy', 'a oneToMany relation cannot own a two-way relation (Strapi refuses to start: "one side of a oneToMany cannot be the owner side in a bidirectional relation"): give it mappedBy, and the other side\'s manyToOne inversedBy');
      refused.add(keyOf(r.uid, r.name));
      continue;
    }
    if (r.relation === 'manyToOne' && bidirectional && !owner) {
      note('error', r, 'mappedBy', 'a manyToOne relation must own a two-way relation (Strapi refuses to start: "The many side of a manyToOne must be the owning side"): give it inversedBy, and the other side\'s oneToMany mappedBy');
      refused.add(keyOf(r.uid, r.name));
      continue;
    }
    if (!owner) continue;
    final.set(keyOf(r.uid, r.name), { kind: 'own' });
    if (r.inversedBy === undefined) continue;
    const back = attributesOf(r.target)[r.inversedBy] as Json | undefined;
    if (typeof back !== 'object' || back === null || back.type !== 'relation') {
      note('error', r, 'inversedBy', `inversedBy "${r.inversedBy}" is not a relation attribute of "${r.target}" (Strapi refuses to start on it)`);
      continue;
    }
    if (back.target !== r.uid) {
      // Strapi starts: the other side reads the table of the last relation inversedBy it, whatever
      // its target. This one keeps its own table; which side reads what is said once all are read.
      mistargeted.push({ r, at: readOrder++ });
      continue;
    }
    const backKey = keyOf(r.target, r.inversedBy);
    if (!relations.has(backKey)) continue; // a morph or invalid relation: reported by the attribute rules
    final.set(backKey, { kind: 'inverse', of: { uid: r.uid, attribute: r.name } });
    received.set(backKey, [...(received.get(backKey) ?? []), r]);
    lastRead.set(backKey, readOrder++);
  }

  const tableOf = (ref: AttributeRef) => {
    const json = types.get(ref.uid)?.json as Json | undefined;
    const info = (json?.info ?? {}) as Json;
    const table = typeof json?.collectionName === 'string' ? json.collectionName : String(info.pluralName ?? '').replace(/-/g, '_');
    return linkTableName(table, ref.attribute);
  };

  for (const { r, at } of mistargeted) {
    const back = attributesOf(r.target)[r.inversedBy!] as Json;
    const backRef = show({ uid: r.target, attribute: r.inversedBy! });
    const backKey = keyOf(r.target, r.inversedBy!);
    const reader = final.get(backKey);
    const readBy = reader?.kind === 'inverse' ? show(reader.of) : undefined;
    const own = `this side keeps its own table ("${tableOf({ uid: r.uid, attribute: r.name })}"), which ${backRef} does not show`;
    const fix = `make ${backRef} target "${r.uid}" with mappedBy "${r.name}", or drop inversedBy here`;
    const message = readBy !== undefined && (lastRead.get(backKey) ?? -1) > at
      ? `inversedBy "${r.inversedBy}", but ${backRef} has target ${JSON.stringify(back.target)}, not "${r.uid}": Strapi starts and reads ${backRef} from ${readBy}, read after this one; ${own}; ${fix}`
      : `inversedBy "${r.inversedBy}", but ${backRef} has target ${JSON.stringify(back.target)}, not "${r.uid}": Strapi starts, but reads ${backRef} from this side's table as ${JSON.stringify(back.target)} entries (wrong rows); here ${own}${readBy === undefined ? '' : ` (it reads ${readBy})`}; ${fix}`;
    note('warning', r, 'inversedBy', message);
  }

  for (const r of relations.values()) {
    const key = keyOf(r.uid, r.name);
    if (refused.has(key)) continue;
    const storage = final.get(key);
    const inverters = received.get(key) ?? [];
    if (r.inversedBy !== undefined && r.mappedBy !== undefined) {
      note('warning', r, 'mappedBy', `has both inversedBy and mappedBy: Strapi reads inversedBy (this side owns the relation) and ignores mappedBy "${r.mappedBy}"`);
    }
    if (storage === undefined) {
      // A mappedBy side nothing is inversedBy.
      final.set(key, { kind: 'none' });
      const partner = relationAt(r.target, r.mappedBy!);
      const why = partner === undefined ? `"${r.target}" has no relation attribute "${r.mappedBy}"` : `"${r.target}".${r.mappedBy} is not inversedBy "${r.name}"`;
      note('warning', r, 'mappedBy', `mappedBy "${r.mappedBy}", but ${why}: Strapi keeps no storage for this side, so it always reads empty (null or []) and writes to it are ignored`);
      continue;
    }
    if (storage.kind === 'own') {
      // Its own table, but relations inversedBy it were read earlier: they do not show on this side.
      for (const inverter of inverters) {
        if (r.inversedBy === inverter.name && inverter.target === r.uid) continue; // both own each other: reported on the reading side
        const owner = relationAt(inverter.uid, inverter.name)!;
        note('warning', owner, 'inversedBy', `inversedBy "${r.name}", but "${r.uid}".${r.name} is ${r.inversedBy === undefined ? 'a one-way relation' : `inversedBy "${r.inversedBy}"`}: Strapi keeps ${show({ uid: r.uid, attribute: r.name })} in its own table ("${tableOf({ uid: r.uid, attribute: r.name })}"), so it does not show the links of this one ("${tableOf({ uid: owner.uid, attribute: owner.name })}")`);
      }
      continue;
    }
    if (storage.kind !== 'inverse') continue;
    const owner = relationAt(storage.of.uid, storage.of.attribute)!;
    const table = tableOf(storage.of);
    if (!matches(r.relation, owner.relation)) {
      note('error', r, 'relation', `${r.relation} does not match the other side's ${owner.relation} (${show(storage.of)})`);
      continue;
    }
    const others = inverters.filter((i) => i !== owner);
    if (others.length > 0) {
      const all = [...others, owner].map((i) => show({ uid: i.uid, attribute: i.name }));
      const names = all.length === 2 ? `${all[0]} and ${all[1]} are both` : `${all.join(', ')} are all`;
      const mapped = r.mappedBy === undefined ? '' : r.mappedBy === owner.name ? '' : ` (not the one its mappedBy "${r.mappedBy}" names)`;
      note('warning', r, r.mappedBy !== undefined ? 'mappedBy' : 'relation', `${names} inversedBy "${r.name}": Strapi links this side to the last it reads, ${show(storage.of)}${mapped}, in "${table}"; ${others.map((i) => show({ uid: i.uid, attribute: i.name })).join(', ')} ${others.length === 1 ? 'keeps its' : 'keep their'} own table, which this side does not show`);
    } else if (r.inversedBy !== undefined) {
      note('warning', r, 'inversedBy', `${show({ uid: r.uid, attribute: r.name })} and ${show(storage.of)} are inversedBy each other (both owning sides): Strapi stores the relation in the table of the one it reads last, ${show(storage.of)} ("${table}"), and reads this side from it, as if it said mappedBy "${owner.name}"`);
    } else if (r.mappedBy !== owner.name) {
      const what = r.mappedBy === undefined ? 'is a one-way relation' : `says mappedBy "${r.mappedBy}"`;
      note('warning', r, r.mappedBy !== undefined ? 'mappedBy' : 'relation', `${what}, but ${show(storage.of)} is inversedBy it: Strapi reads this side from that relation's table ("${table}")`);
    }
  }

  return {
    storage: (uid, attribute) => final.get(keyOf(uid, attribute)),
    notes,
  };
}

function matches(a: string, b: string): boolean {
  return inverseKind[a] === b;
}
