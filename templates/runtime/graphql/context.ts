/**
 * The context every resolver receives: the request's auth state (`state.auth`,
 * `state.user`), its Koa context (`http`, also `koaContext` as in Strapi) and the
 * per-request relation loader that batches nested reads.
 */
import type { Context } from 'koa';
import type { AuthState } from '../auth/authenticate.js';
import type { RelationLoader } from './loader.js';

export interface GraphqlContext {
  readonly state: AuthState;
  readonly http: Context;
  /** Strapi's name for `http`. */
  readonly koaContext: Context;
  /** Batches relation and media reads of one request: one statement per field and level. */
  readonly loader: RelationLoader;
}
