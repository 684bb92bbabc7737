/**
 * The Strapi 5.54.0 project a v5 recording runs. Like /work/shared/tools/strapi5-install.sh (whose
 * install it reuses: node_modules is a link to it), plus what the recordings need and the script
 * lacks: roles beyond public/authenticated, the permissions a set adds (upload, users), the i18n
 * locales of the set's locales.json, a full-access API token written to tokens.json, secrets
 * from the environment and GraphQL introspection on.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeProjectTree } from '../../import/recorder/app.js';

export const strapiVersion = '5.54.0';

/** Fixed secrets, recorded with the answers so a comparison can sign the same JWTs. */
export const secrets = {
  APP_KEYS: 'recordKeyA==,recordKeyB==',
  JWT_SECRET: 'record-users-jwt-secret',
  API_TOKEN_SALT: 'record-api-token-salt',
  ADMIN_JWT_SECRET: 'record-admin-jwt-secret',
  TRANSFER_TOKEN_SALT: 'record-transfer-token-salt',
  ENCRYPTION_KEY: 'record-encryption-key-0123456789ab',
} as const;

export interface V5Set {
  /** Model folder: api/, components/, permissions.json, locales.json (optional). */
  dir: string;
  /** Actions added to permissions.json's, per role type (roles that do not exist are created). */
  extraPermissions: Record<string, string[]>;
}

const packageJson = (name: string) => ({
  name,
  private: true,
  version: '0.1.0',
  description: 'A Strapi 5.54.0 project recorded for contentgen (see test/v5/recorder)',
  scripts: { start: 'node server.js' },
  dependencies: {
    '@strapi/strapi': strapiVersion,
    '@strapi/plugin-users-permissions': strapiVersion,
    '@strapi/plugin-graphql': strapiVersion,
    'better-sqlite3': '11.10.0',
    pg: '8.23.1',
    mysql2: '3.24.6',
  },
});

const files: Record<string, string> = {
  'server.js': `process.env.NODE_ENV = process.env.NODE_ENV || 'production';
process.env.STRAPI_TELEMETRY_DISABLED = 'true';
const { createStrapi } = require('@strapi/strapi');
createStrapi({ appDir: __dirname, distDir: __dirname }).start();
`,
  // DATABASE_CLIENT: sqlite (the default), postgres or mysql (Strapi 5's name for MySQL/MariaDB through mysql2).
  'config/database.js': `const path = require('path');
module.exports = ({ env }) => {
  const client = env('DATABASE_CLIENT', 'sqlite');
  const server = (port, user) => ({
    host: env('DATABASE_HOST', '127.0.0.1'), port: env.int('DATABASE_PORT', port), database: env('DATABASE_NAME', 'strapi'),
    user: env('DATABASE_USERNAME', user), password: env('DATABASE_PASSWORD', ''),
  });
  const connections = {
    sqlite: { connection: { filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')) }, useNullAsDefault: true },
    postgres: { connection: server(5432, 'postgres'), pool: { min: 0, max: 5 } },
    mysql: { connection: server(3306, 'root'), pool: { min: 0, max: 5 } },
  };
  return { connection: { client, ...connections[client] } };
};
`,
  'config/server.js': `module.exports = ({ env }) => ({ host: env('HOST', '127.0.0.1'), port: env.int('PORT', 1337), app: { keys: env.array('APP_KEYS') } });
`,
  'config/admin.js': `module.exports = ({ env }) => ({
  serveAdminPanel: false, autoOpen: false,
  auth: { secret: env('ADMIN_JWT_SECRET') }, apiToken: { salt: env('API_TOKEN_SALT') },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT') } }, secrets: { encryptionKey: env('ENCRYPTION_KEY') },
});
`,
  'config/api.js': `module.exports = { rest: { defaultLimit: 25, maxLimit: 100, withCount: true } };
`,
  'config/middlewares.js': `module.exports = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];
`,
  'config/plugins.js': `module.exports = ({ env }) => ({
  'users-permissions': { config: { jwtSecret: env('JWT_SECRET') } },
  graphql: { config: { landingPage: false, defaultLimit: 25, maxLimit: 100, depthLimit: 10, apolloServer: { introspection: true } } },
});
`,
};

const bootstrapJs = (extra: Record<string, string[]>) => `'use strict';
const fs = require('fs');
const path = require('path');

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);
const extra = ${JSON.stringify(extra)};

module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    const permissions = readJson(path.join(__dirname, 'permissions.json')) || {};
    const roles = strapi.db.query('plugin::users-permissions.role');
    const perms = strapi.db.query('plugin::users-permissions.permission');
    const types = new Set([...Object.keys(permissions), ...Object.keys(extra)]);
    for (const type of types) {
      let role = await roles.findOne({ where: { type } });
      if (!role) role = await roles.create({ data: { type, name: type[0].toUpperCase() + type.slice(1), description: 'Role ' + type } });
      for (const action of [...(permissions[type] || []), ...(extra[type] || [])]) {
        const found = await perms.findOne({ where: { action, role: role.id } });
        if (!found) await perms.create({ data: { action, role: role.id } });
      }
    }

    const locales = readJson(path.join(__dirname, 'locales.json'));
    if (locales) {
      const service = strapi.plugin('i18n').service('locales');
      for (const { code, name } of locales.locales) {
        if (!(await service.findByCode(code))) await service.create({ code, name });
      }
      await service.setDefaultLocale({ code: locales.defaultLocale });
    }

    const out = process.env.RECORD_TOKENS_FILE;
    // Strapi 5 makes its own tokens on a first start (their keys are not readable): one more, named.
    if (out && !(await strapi.db.query('admin::api-token').findOne({ where: { name: 'recorder' } }))) {
      const created = await strapi.service('admin::api-token').create({ name: 'recorder', description: 'recorder', type: 'full-access', lifespan: null });
      fs.writeFileSync(out, JSON.stringify([{ id: created.id, name: created.name, type: created.type, accessKey: created.accessKey }], null, 2));
    }
  },
};
`;

/**
 * Writes the project into `dir` (models, routes, controllers, services, bootstrap). With
 * `install`, also public/uploads, .tmp and node_modules as a link to that install's.
 */
export function writeStrapi5Project(dir: string, name: string, set: V5Set, install?: string): void {
  writeProjectTree(dir, { packageJson: packageJson(name), files, bootstrap: bootstrapJs(set.extraPermissions), modelsDir: set.dir });
  if (install) {
    mkdirSync(path.join(dir, 'public', 'uploads'), { recursive: true });
    mkdirSync(path.join(dir, '.tmp'), { recursive: true });
    symlinkSync(path.join(install, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  }
}
