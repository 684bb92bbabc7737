/**
 * Emits the files that make out/ a project of its own: package.json, tsconfig.json,
 * prisma.config.ts, README, the server entry and the user-owned config.
 */
import type { Schema } from '../../ir/types.js';
import { FileMap } from '../file-map.js';
import { render } from '../templates.js';
import { overrideOf, versionOf } from './versions.js';
import { seedEnvVariables, seedProjectConfig, seedView } from './config-seed.js';
import { communityPluginSettings } from '../../ir/community-plugins.js';
import { communityPluginsSection } from './community-plugins.js';
import { uploadProvidersOf } from '../runtime.js';

export const defaultDatabaseUrl = 'file:./data/data.db';

const adapterPackage = {
  sqlite: '@prisma/adapter-better-sqlite3',
  postgresql: '@prisma/adapter-pg',
  mysql: '@prisma/adapter-mariadb',
} as const;

export function emitProject(ir: Schema, options: { name: string }): FileMap {
  const files = new FileMap();
  const seed = ir.projectConfig ? seedProjectConfig(ir.projectConfig) : undefined;
  const uploadProviderModules = uploadProvidersOf(ir.plugins).map((p) => p.module.replace(/\.ts$/, '.js'));
  const view = { defaultDatabaseUrl, provider: ir.provider, plugins: ir.plugins, projectEnv: seedEnvVariables(seed), uploadProviderModules };
  files.add('package.json', json(packageJson(ir, options.name)));
  files.add('tsconfig.json', json(tsconfig));
  files.add('prisma.config.ts', render('project/prisma.config.ts.hbs', view));
  files.add('scripts/prisma-generate.mjs', render('project/prisma-generate.mjs.hbs', view));
  files.add('scripts/ensure-dist.mjs', render('project/ensure-dist.mjs.hbs', view));
  // The container recipe (README, "Production"); test/standalone/container.test.ts runs its commands.
  const container = { name: options.name, sqlite: ir.provider === 'sqlite', postgresql: ir.provider === 'postgresql', mysql: ir.provider === 'mysql' };
  files.add('Dockerfile', render('project/Dockerfile.hbs', container));
  files.add('.dockerignore', render('project/dockerignore.hbs', container));
  files.add('compose.yaml', render('project/compose.yaml.hbs', container), 'user');
  files.add('src/server.ts', render('project/server.ts.hbs', view));
  files.add('src/token.ts', render('project/token.ts.hbs', view));
  files.add('.env.example', render('project/env.example.hbs', view));
  files.add('.gitignore', render('project/gitignore.hbs', view));
  files.add('.gitattributes', render('project/gitattributes.hbs', view));
  const readmeView = {
    ...view,
    name: options.name,
    typeCount: ir.contentTypes.filter((ct) => !ct.plugin).length,
    types: ir.contentTypes.filter((ct) => !ct.plugin).map((ct) => ({
      displayName: ct.displayName,
      uid: ct.uid,
      routes:
        ct.kind === 'singleType'
          ? `\`GET\` \`PUT\` \`DELETE\` \`/api/${ct.names.route}\``
          : `\`GET\` \`POST\` \`/api/${ct.names.route}\`, \`GET\` \`PUT\` \`DELETE\` \`/api/${ct.names.route}/:id\``,
      // The i18n plugin's route of a localized type.
      localizations: ct.localized ? `\`POST\` \`/api/${ct.names.route}${ct.kind === 'singleType' ? '' : '/:id'}/localizations\`` : undefined,
    })),
    i18n: ir.contentTypes.some((ct) => ct.localized) ? { locales: ir.i18n.locales.map((l) => `\`${l.code}\``).join(', '), defaultLocale: ir.i18n.defaultLocale } : undefined,
  };
  // A short README, and a page a topic under docs/ (GraphQL's only with the plugin).
  files.add('README.md', render('project/README.md.hbs', readmeView));
  for (const page of ['settings', 'rest', 'auth', 'production', 'your-code', ...(ir.plugins.graphql ? ['graphql'] : [])]) {
    files.add(`docs/${page}.md`, render(`project/docs/${page}.md.hbs`, readmeView));
  }
  files.add('src/config.ts', render('user/config.ts.hbs', { ...view, seed: seedView(seed), communityPlugins: communityPluginsSection(communityPluginSettings(ir).settings) }), 'user');
  files.add('src/email.ts', render('user/email.ts.hbs', view), 'user');
  files.add('prisma/migrations/migration_lock.toml', `# Prisma reads this file; keep it in version control.\nprovider = "${ir.provider}"\n`);
  return files;
}

function packageJson(ir: Schema, name: string) {
  const runtime: Record<string, string> = {
    '@graphql-tools/schema': versionOf('@graphql-tools/schema'),
    '@koa/cors': versionOf('@koa/cors'),
    '@koa/router': versionOf('@koa/router'),
    '@paralleldrive/cuid2': versionOf('@paralleldrive/cuid2'),
    '@prisma/client': versionOf('@prisma/client'),
    '@prisma/driver-adapter-utils': versionOf('@prisma/driver-adapter-utils'),
    '@prisma/schema-engine-wasm': versionOf('@prisma/schema-engine-wasm'),
    [adapterPackage[ir.provider]]: versionOf(adapterPackage[ir.provider]),
    bcrypt: versionOf('bcrypt'),
    busboy: versionOf('busboy'),
    graphql: versionOf('graphql'),
    helmet: versionOf('helmet'),
    jsonwebtoken: versionOf('jsonwebtoken'),
    koa: versionOf('koa'),
    'koa-helmet': versionOf('koa-helmet'),
    'mime-types': versionOf('mime-types'),
    qs: versionOf('qs'),
    sharp: versionOf('sharp'),
    // The type packages `tsc` needs: a one-step production install (`NODE_ENV=production npm ci`,
    // then `npm start`) compiles on the host, where development dependencies are left out. npm
    // keeps `typescript` and `prisma` there (optional peer dependencies of @prisma/client); a lean
    // install that starts a prebuilt dist/ drops those two (Dockerfile) and keeps these ~4 MB.
    '@types/bcrypt': versionOf('@types/bcrypt'),
    '@types/busboy': versionOf('@types/busboy'),
    '@types/jsonwebtoken': versionOf('@types/jsonwebtoken'),
    '@types/koa__cors': versionOf('@types/koa__cors'),
    '@types/mime-types': versionOf('@types/mime-types'),
    '@types/koa': versionOf('@types/koa'),
    '@types/node': versionOf('@types/node'),
    '@types/qs': versionOf('@types/qs'),
  };
  // An upload provider's packages only when the build includes it (the AWS SDK: ~22 MB installed).
  for (const name of uploadProvidersOf(ir.plugins).flatMap((p) => p.packages)) runtime[name] = versionOf(name);
  if (ir.provider === 'sqlite') runtime['better-sqlite3'] = versionOf('better-sqlite3');
  // The driver itself too: reads run on its pool directly (db/pg-reader.ts, db/mariadb-reader.ts).
  if (ir.provider === 'postgresql') runtime.pg = versionOf('pg');
  if (ir.provider === 'mysql') runtime.mariadb = versionOf('mariadb');
  return {
    name,
    version: '0.1.0',
    private: true,
    description: 'REST and GraphQL API server generated by contentgen. Regenerate instead of editing generated files.',
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: {
      postinstall: 'node scripts/prisma-generate.mjs',
      build: 'tsc -p tsconfig.json',
      // Compiles when TypeScript is installed; a lean production install starts the dist/ built before it.
      prestart: 'node scripts/ensure-dist.mjs',
      // exec: npm's SIGTERM reaches the server itself (not a shell that would leave it orphaned).
      // --heap-growing-percent=50: a full GC once the old generation has grown by half since the
      // last one (V8 lets it grow up to 4×): peak RSS under load ~135-143 MB instead of 140-175,
      // CPU per request within noise (README, "Memory"). A flag here wins over NODE_OPTIONS.
      start: 'exec node --heap-growing-percent=50 dist/server.js',
      pretoken: 'node scripts/ensure-dist.mjs',
      token: 'node dist/token.js',
      prisma: 'prisma',
    },
    dependencies: sortKeys(runtime),
    // Redis (node-redis) serves the rate limiter only when REDIS_URL is set, which a build cannot
    // know: npm installs optional dependencies by default, so setting REDIS_URL later needs no
    // install, and a deployment without Redis may leave it out (`npm ci --omit=optional`).
    optionalDependencies: { redis: versionOf('redis') },
    devDependencies: sortKeys({
      // GraphiQL, the GraphQL playground of development and staging (graphql/playground.ts):
      // browser files the server serves itself, not needed by a production install.
      graphiql: versionOf('graphiql'),
      prisma: versionOf('prisma'),
      react: versionOf('react'),
      'react-dom': versionOf('react-dom'),
      // Swagger UI, the REST documentation page of development (http/documentation.ts).
      'swagger-ui-dist': versionOf('swagger-ui-dist'),
      typescript: versionOf('typescript'),
    }),
    // npm 11 runs dependencies' install scripts only when approved; these build native code.
    // swagger-ui-dist's @scarf/scarf would report the install to its vendor: refused.
    // @graphql-tools/schema 10.0.x takes any @graphql-tools/merge 9.x, whose newest need
    // @graphql-tools/utils 12 and, through it, a package for Node >= 22.15 only (an EBADENGINE
    // warning on every install here, and code newer than the Node this server supports).
    overrides: { '@graphql-tools/merge': overrideOf('@graphql-tools/merge') },
    allowScripts: sortKeys({ bcrypt: true, ...(ir.provider === 'sqlite' ? { 'better-sqlite3': true } : {}), prisma: true, '@prisma/engines': true, '@scarf/scarf': false }),
  };
}

const tsconfig = {
  compilerOptions: {
    target: 'ES2023',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    rootDir: 'src',
    outDir: 'dist',
    incremental: true,
    tsBuildInfoFile: 'dist/.tsbuildinfo',
    types: ['node'],
  },
  include: ['src'],
};

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function sortKeys<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1))) as T;
}
