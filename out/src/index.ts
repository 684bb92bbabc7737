// Created once by contentgen; this file is yours to edit and is never overwritten.
/**
 * Your app's start-up code, as Strapi's src/index.js. Both run once per process start.
 *
 *   register({ config, registry, koa }): before the routes and the GraphQL schema are built.
 *   bootstrap({ db, service, config, koa }): once the database is migrated and connected,
 *     before the server listens — e.g. seed an entry:
 *       const { data } = await service('api::article.article').find({ pagination: { limit: 1 } });
 *
 * The global middleware stack (Strapi's config/middlewares.js) is `middlewares` in
 * src/config.ts; your own middlewares and policies go in src/middlewares/<name>.ts and
 * src/policies/<name>.ts (then rebuild), per content type code in src/api/<name>.ts.
 */
import { fileURLToPath } from 'node:url';
import { defineApp } from './runtime/extend/index.js';
import { seedDemoData } from './demo-data.js';

export default defineApp({
  register() {},
  // The demo's sample content, written into an empty database outside production.
  async bootstrap(context) {
    if (process.env.NODE_ENV === 'production') return;
    if (await seedDemoData(context, fileURLToPath(new URL('..', import.meta.url)))) console.log('demo: sample content written');
  },
});
