// Created once by contentgen; this file is yours to edit and is never overwritten.
/**
 * Author (api::author.author): your controllers, services, routes and lifecycle hooks, as in
 * Strapi's src/api/author/. REST and GraphQL both go through the service and the hooks.
 *
 *   controllers: ({ core }) => ({
 *     async find(ctx) {                       // wrap (or replace) a core action
 *       const answer = await core.find(ctx);
 *       return answer;
 *     },
 *     async hello(ctx) {                       // a new action: give it a route below
 *       return { hello: ctx.state.user?.username ?? 'guest' };
 *     },
 *   }),
 *   services: (core) => ({                     // wrap the service REST and GraphQL call
 *     find: (query, access) => core.find({ ...query }, access),
 *   }),
 *   routes: {
 *     config: { find: { auth: false }, update: { policies: ['global::is-owner'], middlewares: ['global::audit'] } },
 *     custom: [{ method: 'GET', path: '/authors/hello', handler: 'hello' }], // permission api::author.author.hello
 *   },
 *   lifecycles: {                              // inside the write's transaction: a throw rolls it back
 *     beforeCreate(event) { event.params.data; },
 *     afterCreate(event) { event.result.id; },
 *   },
 *
 * Throw `new errors.ValidationError('…')` (or ApplicationError, NotFoundError, ForbiddenError)
 * to answer in Strapi's error envelope. Policies and middlewares named `global::<name>` are
 * the files src/policies/<name>.ts and src/middlewares/<name>.ts. Rebuild after changing
 * custom routes (their actions join the policy table that permissions.json grants) or adding
 * a policy or middleware file.
 */
import { defineContentApi } from '../runtime/extend/index.js';
import type { AuthorEntry, AuthorInput } from '../generated/content-types/author.js';

export default defineContentApi<AuthorEntry, AuthorInput>('api::author.author', {});
