/**
 * The answer to a method the path's routes do not have: 405 with Strapi's answer (Koa's own
 * for a bodiless 405: `text/plain` body `Method Not Allowed`, not the JSON error envelope)
 * and an `Allow` header listing the path's methods, whether the router knows
 * the method (`PATCH /api/articles`) or not (`PROPFIND`, `LOCK`, `PURGE`…: @koa/router's
 * `allowedMethods({ throw: true })` raised a 501 there, which the envelope only knew as a 500
 * with a stack trace in the log; Strapi answers it 501). A path no route has is a 404 whatever
 * the method. Methods Node's HTTP parser does not know (`FOO`) never reach the application:
 * Node answers 400 Bad Request itself.
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { NotFoundError } from '../errors.js';

export function allowedMethods(router: Router<any, any>) {
  const answer = router.allowedMethods();
  return async function methodNotAllowed(ctx: Context, next: Next): Promise<void> {
    await answer(ctx as never, next);
    if ((ctx.body !== undefined && ctx.body !== null) || (ctx.status !== 405 && ctx.status !== 501)) return;
    if (ctx.response.get('Allow') === '') {
      ctx.remove('Allow');
      throw new NotFoundError();
    }
    ctx.status = 405;
    ctx.type = 'text/plain';
    ctx.body = 'Method Not Allowed';
  };
}
