/**
 * What your code in src/ uses to customise the server: one import for all of it.
 *   import { defineContentApi, definePolicy, defineMiddleware, defineApp, errors } from '../runtime/extend/index.js';
 */
import { ApplicationError, ForbiddenError, NotFoundError, PolicyError, UnauthorizedError, ValidationError } from '../errors.js';
import type { ContentApi } from './content-api.js';
import type { AppHooks } from './app.js';
import type { MiddlewareFactory } from './middlewares.js';
import type { Policy } from './policies.js';

export { defineApp, type AppHooks, type BootstrapContext, type RegisterContext } from './app.js';
export { defineContentApi, type ContentApi, type ContentApiDefinition, type ContentService, type Controller, type CoreAction, type CoreController, type CustomRoute, type RouteConfig } from './content-api.js';
export type { LifecycleEvent, Lifecycles } from './lifecycles.js';
export type { WebhookEvent } from '../webhooks/index.js';
export { defineMiddleware, type MiddlewareFactory, type MiddlewareReference } from './middlewares.js';
export { definePolicy, type Policy, type PolicyContext, type PolicyReference } from './policies.js';

/** Strapi's `@strapi/utils` errors: throw them from any of your code to answer in Strapi's error envelope. */
export const errors = { ApplicationError, ValidationError, NotFoundError, ForbiddenError, UnauthorizedError, PolicyError };

/** Everything of the user's src/ the server runs (listed by src/generated/user-code.ts). */
export interface UserCode {
  readonly app?: AppHooks;
  readonly apis: readonly ContentApi<any, any>[];
  readonly policies: Readonly<Record<string, Policy<any>>>;
  readonly middlewares: Readonly<Record<string, MiddlewareFactory>>;
}
