/**
 * Lifecycle hooks of a content type, as Strapi v4's `lifecycles.js`: `before*` and `after*`
 * of create, update, delete, findOne, findMany and count, each given one event
 * `{ action, model, params, result?, state }`. The entity service runs them for REST and
 * GraphQL alike. The hooks of a write run inside its transaction: a throw in any of them
 * rolls the whole write back (an ApplicationError or ValidationError reaches the client in
 * Strapi's error envelope, anything else is a 500 without internals).
 */
import type { ContentTypeMeta } from '../meta.js';

export type LifecycleAction = 'create' | 'update' | 'delete' | 'findOne' | 'findMany' | 'count';

/** The model an event is about (Strapi's `event.model`: uid, names and table). */
export interface LifecycleModel {
  readonly uid: string;
  readonly singularName: string;
  readonly pluralName: string;
  readonly tableName: string;
  readonly kind: 'collectionType' | 'singleType';
}

/**
 * What each action's hooks receive in `event.params`; `before*` hooks may change them (a
 * `beforeCreate` that sets `params.data.slug`, a `beforeFindMany` that adds to
 * `params.filters`), and the action uses what they leave.
 */
export interface LifecycleParams<Input> {
  create: { data: Input; query: Record<string, unknown> };
  update: { where: { id: number }; data: Input; query: Record<string, unknown> };
  delete: { where: { id: number }; query: Record<string, unknown> };
  findOne: { where: { id: number }; query: Record<string, unknown> };
  findMany: Record<string, unknown>;
  count: Record<string, unknown>;
}

/** What each action's `after*` hooks receive in `event.result`. */
export interface LifecycleResults<Entry> {
  create: Entry;
  update: Entry;
  delete: Entry;
  findOne: Entry | null;
  findMany: Entry[];
  count: number;
}

export interface LifecycleEvent<A extends LifecycleAction, Entry = unknown, Input = Record<string, unknown>> {
  readonly action: `before${Capitalize<A>}` | `after${Capitalize<A>}`;
  readonly model: LifecycleModel;
  params: LifecycleParams<Input>[A];
  /** Set for `after*` hooks. */
  result?: LifecycleResults<Entry>[A];
  /** Shared by the `before*` and `after*` hook of one call: pass values from one to the other. */
  readonly state: Record<string, unknown>;
}

type Hook<E> = (event: E) => unknown;

export type Lifecycles<Entry = unknown, Input = Record<string, unknown>> = {
  [A in LifecycleAction as `before${Capitalize<A>}`]?: Hook<LifecycleEvent<A, Entry, Input>>;
} & {
  [A in LifecycleAction as `after${Capitalize<A>}`]?: Hook<LifecycleEvent<A, Entry, Input> & { result: LifecycleResults<Entry>[A] }>;
};

export function lifecycleModel(meta: ContentTypeMeta): LifecycleModel {
  return { uid: meta.uid, singularName: meta.singularName, pluralName: meta.pluralName, tableName: meta.table, kind: meta.kind };
}

/**
 * Runs `action` between its `before*` and `after*` hooks. `run` receives the params as the
 * `before*` hook left them. Without hooks for the action, it costs nothing.
 */
export async function withLifecycle<A extends LifecycleAction, R>(
  lifecycles: Lifecycles<any, any> | undefined,
  model: LifecycleModel,
  action: A,
  params: LifecycleParams<any>[A],
  run: (params: LifecycleParams<any>[A]) => Promise<R>,
  /** What `after*` hooks see of the action's answer (findMany: the entries of the page). */
  resultOf: (answer: R) => unknown = (answer) => answer,
): Promise<R> {
  const name = `${action.charAt(0).toUpperCase()}${action.slice(1)}` as Capitalize<A>;
  const before = lifecycles?.[`before${name}` as keyof Lifecycles] as Hook<LifecycleEvent<A>> | undefined;
  const after = lifecycles?.[`after${name}` as keyof Lifecycles] as Hook<LifecycleEvent<A>> | undefined;
  if (!before && !after) return run(params);
  const state: Record<string, unknown> = {};
  const event: LifecycleEvent<A> = { action: `before${name}`, model, params, state };
  if (before) await before(event);
  const result = await run(event.params);
  if (after) await after({ action: `after${name}`, model, params: event.params, result: resultOf(result) as never, state });
  return result;
}
