/**
 * Policies, as Strapi v4's: a function that answers whether a request may go on. Named ones
 * live in src/policies/<name>.ts (`global::<name>`, or just `<name>`) and serve REST route
 * config and GraphQL `resolversConfig` alike; a route may also list a function inline.
 * Any answer but `true` or `undefined` refuses the request with 403 PolicyError "Policy
 * Failed"; a policy may throw its own PolicyError (or any ApplicationError) instead.
 */
import type { Context } from 'koa';
import type { AuthState } from '../auth/authenticate.js';
import { PolicyError } from '../errors.js';
import type { PolicyContext as GraphqlPolicyContext } from '../graphql/extension.js';

/** A REST request as a policy sees it: the Koa context (`state.user`, `params`, `request.body`, …). */
export type RestPolicyContext = Context & { readonly type: 'koa'; readonly state: AuthState };

export type PolicyContext = RestPolicyContext | (GraphqlPolicyContext & { readonly type: 'graphql' });

export type Policy<Config = unknown> = (context: PolicyContext, config: Config) => unknown;

/** `'global::is-owner'`, `'is-owner'`, `{ name, config }`, or a function. */
export type PolicyReference = string | { readonly name: string; readonly config?: unknown } | Policy;

/** Gives a policy file its type: `export default definePolicy((ctx) => ctx.state.user !== undefined)`. */
export function definePolicy<Config = unknown>(policy: Policy<Config>): Policy<Config> {
  return policy;
}

/** `global::is-owner` and `is-owner` are the same policy (src/policies/is-owner.ts). */
export function policyKey(name: string): string {
  return name.startsWith('global::') ? name.slice('global::'.length) : name;
}

/**
 * The policies of a reference list, each bound to its config. Unknown names throw at start,
 * naming the place that uses them (`where`) and the policies there are.
 */
export function resolvePolicies(references: readonly PolicyReference[] | undefined, named: ReadonlyMap<string, Policy>, where: string): ((context: PolicyContext) => unknown)[] {
  return (references ?? []).map((reference) => {
    if (typeof reference === 'function') return (context) => reference(context, undefined);
    const name = typeof reference === 'string' ? reference : reference.name;
    const config = typeof reference === 'string' ? undefined : reference.config;
    const policy = named.get(policyKey(name));
    if (!policy) {
      const known = [...named.keys()].map((k) => `global::${k}`);
      throw new Error(`${where}: unknown policy ${JSON.stringify(name)} (${known.length ? `known: ${known.join(', ')}` : 'src/policies/ has none'}; add src/policies/${policyKey(name)}.ts and rebuild)`);
    }
    return (context) => policy(context, config);
  });
}

/** Runs policies in order; the first that refuses stops the request. */
export async function checkPolicies(policies: readonly ((context: PolicyContext) => unknown)[], context: PolicyContext): Promise<void> {
  for (const policy of policies) {
    const answer = await policy(context);
    if (answer !== true && answer !== undefined) throw new PolicyError();
  }
}

/** The REST policy context of a request: the Koa context itself, marked `type: 'koa'`. */
export function restPolicyContext(ctx: Context): RestPolicyContext {
  // defineProperty, not assignment: `type` is also Koa's content-type accessor, which an assignment would call.
  return Object.defineProperty(Object.create(ctx) as Context, 'type', { value: 'koa', enumerable: true }) as RestPolicyContext;
}
