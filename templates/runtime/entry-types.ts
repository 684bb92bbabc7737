/**
 * Shared shapes of the typed write input emitted per content type and component
 * (src/generated/**: `<Type>Input`, `<Component>ComponentInput`): how a create or update
 * names the entries a relation points to, as Strapi v4's REST API accepts it and
 * entity/relations.ts reads it.
 *
 *  - shorthand, replacing the whole set: `5`, `{ id: 5 }`, `null` (to-one), `[1, 2]` (to-many);
 *  - `{ set: [...] }`, replacing the whole set in the order given;
 *  - `{ connect: [...], disconnect: [...] }`, editing it; connect items may carry a position.
 *
 * Types only: nothing here exists at run time.
 */

/** Where `connect` puts an entry in the list (default: at the end). */
export type RelationPosition = { before: number } | { after: number } | { start: true } | { end: true };

/** An entry named by its id, as a number or `{ id }`. */
export type RelationRef = number | { id: number };

/** An entry to connect, optionally at a position. */
export type RelationConnectRef = number | { id: number; position?: RelationPosition };

/** `{ connect, disconnect }` edits the current set; `{ set }` replaces it. */
export interface RelationChanges {
  connect?: RelationConnectRef | RelationConnectRef[];
  disconnect?: RelationRef | RelationRef[];
  set?: RelationRef | RelationRef[];
  /** `strict: false` appends a connect whose `before`/`after` entry is not linked, instead of failing. */
  options?: { strict?: boolean };
}

/** A to-one relation in a write: the target, `null` to unlink, or changes. */
export type ToOneRelationWrite = RelationRef | null | RelationChanges;

/** A to-many relation in a write: the whole list of targets, or changes. */
export type ToManyRelationWrite = RelationRef[] | RelationChanges;
