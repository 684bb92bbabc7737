/**
 * The Strapi 4.26.2 project a recording runs: config files, the models as `src/api` and
 * `src/components`, a router/controller/service per API (without them Strapi 4 serves no REST
 * routes) and a bootstrap that writes what a real project keeps as data: permissions, locales,
 * API tokens of each type, webhooks, upload folders and an admin user.
 *
 * The same files, minus the start script and the runtime folders, are the project folder committed
 * beside the recorded data (`fixtures/strapi-data/<set>/`), so `contentgen build` and `contentgen
 * import` read a real Strapi project.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const strapiVersion = '4.26.2';

/** Fixed secrets: they are committed with the data (secrets.json), as a migrator would be given them. */
export const secrets = {
  APP_KEYS: 'recordKeyA==,recordKeyB==',
  JWT_SECRET: 'record-users-jwt-secret',
  API_TOKEN_SALT: 'record-api-token-salt',
  ADMIN_JWT_SECRET: 'record-admin-jwt-secret',
  TRANSFER_TOKEN_SALT: 'record-transfer-token-salt',
} as const;

/** Strapi's process runs in this zone: PostgreSQL/MariaDB keep its wall time (README, "Time zone"). */
export const recordTimeZone = 'Europe/Paris';

/** The actions of each set's custom API token. */
export const customTokenActions = {
  import: ['api::tag.tag.find', 'api::tag.tag.findOne', 'api::article.article.find', 'api::tag.tag.create'],
  'import-i18n': ['api::page.page.find', 'api::page.page.findOne'],
} as const satisfies Record<string, readonly string[]>;

export const adminUser = { email: 'admin@example.com', password: 'AdminPass123', firstname: 'Ada', lastname: 'Admin' };

/**
 * API tokens the bootstrap creates (the plaintext keys are written to tokens.json). One of each
 * type that never expires, so tests can use them whenever they run, and one with Strapi's 7-day
 * lifespan, whose `expiresAt` an import must carry (it is expired a week after the recording).
 */
export const apiTokens = [
  { name: 'read-only reader', description: 'reads everything', type: 'read-only', lifespan: null },
  { name: 'full access', description: 'full access', type: 'full-access', lifespan: null },
  { name: 'custom', description: '', type: 'custom', lifespan: null },
  { name: 'expiring', description: 'read-only, 7 days', type: 'read-only', lifespan: 7 * 24 * 3600 * 1000 },
];

export const webhooks = [
  { name: 'content hook', url: 'http://127.0.0.1:9/hook', headers: { 'X-Secret': 'abc' }, events: ['entry.create', 'entry.update', 'media.create'], isEnabled: true },
  { name: 'disabled hook', url: 'https://example.com/disabled', headers: {}, events: ['entry.delete'], isEnabled: false },
];

export interface SetModels {
  /** Model folder (fixtures/<set>/models): api/, components/, permissions.json, locales.json. */
  dir: string;
  /** Actions of the custom API token. */
  customTokenPermissions: readonly string[];
}

export const packageJson = (name: string) => ({
  name,
  private: true,
  version: '0.1.0',
  description: 'A Strapi 4.26.2 project recorded for contentgen import tests (see test/import/recorder/README.md)',
  scripts: { develop: 'strapi develop', start: 'strapi start' },
  dependencies: {
    '@strapi/strapi': strapiVersion,
    '@strapi/plugin-users-permissions': strapiVersion,
    '@strapi/plugin-graphql': strapiVersion,
    '@strapi/plugin-i18n': strapiVersion,
    'better-sqlite3': '12.9.0',
    mysql2: '3.9.8',
    pg: '8.11.3',
  },
  engines: { node: '>=18.0.0 <=20.x.x' },
});

export const configFiles: Record<string, string> = {
  'config/database.js': `const path = require('path');

module.exports = ({ env }) => {
  const client = env('DATABASE_CLIENT', 'sqlite');
  const connections = {
    sqlite: {
      connection: { filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')) },
      useNullAsDefault: true,
    },
    postgres: {
      connection: {
        host: env('DATABASE_HOST', '127.0.0.1'),
        port: env.int('DATABASE_PORT', 5432),
        database: env('DATABASE_NAME', 'strapi'),
        user: env('DATABASE_USERNAME', 'postgres'),
        password: env('DATABASE_PASSWORD', ''),
        schema: env('DATABASE_SCHEMA', 'public'),
      },
      pool: { min: 0, max: 5 },
    },
    mysql2: {
      connection: {
        host: env('DATABASE_HOST', '127.0.0.1'),
        port: env.int('DATABASE_PORT', 3306),
        database: env('DATABASE_NAME', 'strapi'),
        user: env('DATABASE_USERNAME', 'root'),
        password: env('DATABASE_PASSWORD', ''),
      },
      pool: { min: 0, max: 5 },
    },
  };
  connections.mysql = connections.mysql2; // the 'mysql' client needs the mysql package, not installed
  return { connection: { client, ...connections[client], acquireConnectionTimeout: 60000 } };
};
`,
  'config/server.js': `module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: { keys: env.array('APP_KEYS') },
});
`,
  'config/admin.js': `module.exports = ({ env }) => ({
  serveAdminPanel: false,
  auth: { secret: env('ADMIN_JWT_SECRET') },
  apiToken: { salt: env('API_TOKEN_SALT') },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT') } },
});
`,
  'config/plugins.js': `module.exports = ({ env }) => ({
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } },
  graphql: { config: { shadowCRUD: true, depthLimit: 20, amountLimit: 100 } },
});
`,
  'config/api.js': `module.exports = {
  rest: { defaultLimit: 25, maxLimit: 100, withCount: true },
};
`,
  'config/middlewares.js': `module.exports = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
`,
  '.env.example': `HOST=127.0.0.1
PORT=1337
APP_KEYS=${secrets.APP_KEYS}
API_TOKEN_SALT=${secrets.API_TOKEN_SALT}
ADMIN_JWT_SECRET=${secrets.ADMIN_JWT_SECRET}
TRANSFER_TOKEN_SALT=${secrets.TRANSFER_TOKEN_SALT}
JWT_SECRET=${secrets.JWT_SECRET}
DATABASE_CLIENT=sqlite
DATABASE_FILENAME=.tmp/data.db
`,
};

/** Permissions, locales, tokens, webhooks, folders, admin user: what Strapi keeps as rows. */
export const bootstrapJs = (custom: readonly string[]) => `'use strict';
const fs = require('fs');
const path = require('path');

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);

module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    const permissions = readJson(path.join(__dirname, 'permissions.json')) || {};
    const roles = strapi.query('plugin::users-permissions.role');
    const perms = strapi.query('plugin::users-permissions.permission');
    for (const [type, actions] of Object.entries(permissions)) {
      let role = await roles.findOne({ where: { type } });
      if (!role) role = await roles.create({ data: { type, name: type[0].toUpperCase() + type.slice(1), description: 'Role ' + type } });
      for (const action of actions) {
        const found = await perms.findOne({ where: { action, role: role.id } });
        if (!found) await perms.create({ data: { action, role: role.id } });
      }
    }

    const locales = readJson(path.join(__dirname, 'locales.json'));
    if (locales && strapi.plugin('i18n')) {
      const service = strapi.plugin('i18n').service('locales');
      for (const { code, name } of locales.locales) {
        if (!(await service.findByCode(code))) await service.create({ code, name });
      }
      await service.setDefaultLocale({ code: locales.defaultLocale });
    }

    // Once per database: tokens, webhooks, folders, admin user.
    const out = process.env.RECORD_TOKENS_FILE;
    if ((await strapi.query('admin::api-token').count()) > 0) return;
    const tokens = [];
    for (const spec of ${JSON.stringify(apiTokens)}) {
      const created = await strapi.service('admin::api-token').create({
        ...spec,
        permissions: spec.type === 'custom' ? ${JSON.stringify(custom)} : undefined,
      });
      tokens.push({ id: created.id, name: created.name, type: created.type, accessKey: created.accessKey, expiresAt: created.expiresAt });
    }
    // createWebhook always enables (as the admin does); a disabled one is an update away.
    for (const hook of ${JSON.stringify(webhooks)}) {
      const created = await strapi.webhookStore.createWebhook(hook);
      if (!hook.isEnabled) await strapi.webhookStore.updateWebhook(created.id, hook);
    }

    const folders = strapi.plugin('upload').service('folder');
    const photos = await folders.create({ name: 'Photos', parent: null });
    await folders.create({ name: 'Sub', parent: photos.id });

    const superAdmin = await strapi.service('admin::role').getSuperAdmin();
    if (superAdmin && !(await strapi.service('admin::user').exists())) {
      await strapi.service('admin::user').create({
        ...${JSON.stringify(adminUser)},
        registrationToken: null,
        isActive: true,
        roles: [superAdmin.id],
      });
    }
    if (out) fs.writeFileSync(out, JSON.stringify(tokens, null, 2));
  },
};
`;

export const coreFile = (kind: 'Router' | 'Controller' | 'Service', uid: string) =>
  `'use strict';\n\nconst { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.createCore${kind}('${uid}');\n`;

/**
 * A Strapi project's tree (4 or 5: the same layout), shared by this recorder and test/v5/recorder:
 * package.json, the config files, src/index.js (the bootstrap), permissions.json and
 * locales.json, components, and per API its content type with a core router, controller and service.
 */
export function writeProjectTree(
  dir: string,
  project: { packageJson: object; files: Record<string, string>; bootstrap: string; modelsDir: string },
): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(project.packageJson, null, 2)}\n`);
  for (const [file, text] of Object.entries(project.files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const src = path.join(dir, 'src');
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'index.js'), project.bootstrap);
  cpSync(path.join(project.modelsDir, 'permissions.json'), path.join(src, 'permissions.json'));
  const localesFile = path.join(project.modelsDir, 'locales.json');
  if (existsSync(localesFile)) cpSync(localesFile, path.join(src, 'locales.json'));
  cpSync(path.join(project.modelsDir, 'components'), path.join(src, 'components'), { recursive: true });
  for (const api of readdirSync(path.join(project.modelsDir, 'api'))) {
    const to = path.join(src, 'api', api);
    cpSync(path.join(project.modelsDir, 'api', api, 'content-types'), path.join(to, 'content-types'), { recursive: true });
    const uid = `api::${api}.${api}`;
    for (const [folder, kind] of [['routes', 'Router'], ['controllers', 'Controller'], ['services', 'Service']] as const) {
      mkdirSync(path.join(to, folder), { recursive: true });
      writeFileSync(path.join(to, folder, `${api}.js`), coreFile(kind, uid));
    }
  }
}

/**
 * Writes the project into `dir`: package.json, config/, src/ (models, routes, controllers,
 * services, bootstrap, permissions.json and locales.json). `runtime` adds public/uploads and .tmp.
 */
export function writeStrapiProject(dir: string, name: string, models: SetModels, runtime: boolean): void {
  writeProjectTree(dir, { packageJson: packageJson(name), files: configFiles, bootstrap: bootstrapJs(models.customTokenPermissions), modelsDir: models.dir });
  if (runtime) {
    mkdirSync(path.join(dir, 'public', 'uploads'), { recursive: true });
    mkdirSync(path.join(dir, '.tmp'), { recursive: true });
    writeFileSync(
      path.join(dir, 'start.js'),
      `require('@strapi/strapi')({ appDir: __dirname, distDir: __dirname }).start();\n`,
    );
  }
}

/** The models of a set, read back for building `populate` and for listing entries. */
export interface ModelSchema {
  uid: string;
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  collectionName: string;
  localized: boolean;
  draftAndPublish: boolean;
  attributes: Record<string, any>;
}

/** What the recorder needs of a content type's schema.json. */
export function modelSchema(uid: string, schema: any): ModelSchema {
  return {
    uid,
    kind: schema.kind,
    singularName: schema.info.singularName,
    pluralName: schema.info.pluralName,
    collectionName: schema.collectionName,
    localized: Boolean(schema.pluginOptions?.i18n?.localized),
    draftAndPublish: Boolean(schema.options?.draftAndPublish),
    attributes: schema.attributes,
  };
}

export function readModels(dir: string): { types: ModelSchema[]; components: Map<string, Record<string, any>> } {
  const types: ModelSchema[] = [];
  for (const api of readdirSync(path.join(dir, 'api')).sort()) {
    const schema = JSON.parse(readFileSync(path.join(dir, 'api', api, 'content-types', api, 'schema.json'), 'utf8'));
    types.push(modelSchema(`api::${api}.${api}`, schema));
  }
  const components = new Map<string, Record<string, any>>();
  for (const category of readdirSync(path.join(dir, 'components')).sort()) {
    for (const file of readdirSync(path.join(dir, 'components', category)).sort()) {
      const schema = JSON.parse(readFileSync(path.join(dir, 'components', category, file), 'utf8'));
      components.set(`${category}.${file.replace(/\.json$/, '')}`, schema.attributes);
    }
  }
  return { types, components };
}
