/**
 * The users-permissions side of `contentgen import` (generator/import/auth/) on rows shaped as
 * Strapi 4.26.2 stores them (storage reference §9–§12), normalized as import-core's reader
 * hands them over. What it produces is checked by contentgen's own parts: permissions.json
 * by the build's validation, src/config.imported.ts by compiling it and resolving it with the
 * server's config resolvers, hashes with the server's functions.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleDefinitions } from '../../../generator/emit/auth/catalog.js';
import { buildIr } from '../../../generator/ir/build-ir.js';
import type { Schema } from '../../../generator/ir/types.js';
import type { ProjectConfig } from '../../../generator/load/project-config.js';
import { importAuth, userColumnTypes, type AuthImport, type StrapiAuthTables } from '../../../generator/import/auth/index.js';
import { loadModels } from '../../../generator/load/load-models.js';
import { validateModels } from '../../../generator/validate/validate.js';
import { resolveConfig, type UserConfig } from '../../../templates/runtime/config.js';
import { hashCode } from '../../../templates/runtime/auth/routes.js';
import { modelsOf, repoRoot, tempDir } from '../../helpers/paths.js';

const t0 = new Date('2026-11-27T05:41:44.029Z');
const later = new Date('2026-11-27T05:43:00.000Z');
const salt = 'tokensalt';
const keys = [randomBytes(128).toString('hex'), randomBytes(128).toString('hex'), randomBytes(128).toString('hex')];
const stored = (key: string) => createHmac('sha512', salt).update(key).digest('hex');
const resetCode = randomBytes(64).toString('hex');
const confirmationCode = randomBytes(20).toString('hex');

const stamps = { created_at: t0, updated_at: later };

/** A Strapi 4.26.2 database after some use, as import-core's reader normalizes it. */
function strapiTables(): StrapiAuthTables {
  return {
    users: [
      { id: 1, username: 'editor', email: 'editor@example.com', provider: 'local', password: '$2a$10$0MDTsl7LTeg.sCfgtUg2eeH9ICIRPUNosNE3x2kB70QKjjvDHe/ra', reset_password_token: resetCode, confirmation_token: null, confirmed: true, blocked: false, ...stamps, created_by_id: null, updated_by_id: null, nickname: 'Ed', newsletter: 1, legacy_score: 7 },
      { id: 2, username: 'reader', email: 'reader@example.com', provider: 'local', password: '$2a$10$Zx8m4kM1yW7S1bq1a9wV3eL3hX1lQxF1q2tQ8dO3b0m7s9o0QdVQe', reset_password_token: null, confirmation_token: confirmationCode, confirmed: false, blocked: false, ...stamps, created_by_id: null, updated_by_id: null, nickname: null },
      { id: 3, username: 'octo', email: 'octo@example.com', provider: 'github', password: null, reset_password_token: null, confirmation_token: null, confirmed: true, blocked: true, ...stamps, created_by_id: null, updated_by_id: null, nickname: null },
      { id: 4, username: 'php', email: 'php@example.com', provider: 'local', password: '$2y$10$0MDTsl7LTeg.sCfgtUg2eeH9ICIRPUNosNE3x2kB70QKjjvDHe/ra', reset_password_token: null, confirmation_token: null, confirmed: true, blocked: false, ...stamps, created_by_id: null, updated_by_id: null, nickname: null },
      { id: 5, username: 'editor', email: 'editor2@example.com', provider: 'local', password: '$2a$10$0MDTsl7LTeg.sCfgtUg2eeH9ICIRPUNosNE3x2kB70QKjjvDHe/ra', reset_password_token: null, confirmation_token: null, confirmed: true, blocked: false, ...stamps, created_by_id: null, updated_by_id: null, nickname: null },
    ],
    roles: [
      { id: 1, name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated', ...stamps, created_by_id: null, updated_by_id: null },
      { id: 2, name: 'Public', description: 'Default role given to unauthenticated user.', type: 'public', ...stamps, created_by_id: null, updated_by_id: null },
      { id: 3, name: 'Content Editor', description: 'Writes articles', type: 'content_editor', ...stamps, created_by_id: null, updated_by_id: null },
      { id: 4, name: '2nd Shift', description: '', type: '2nd_shift', ...stamps, created_by_id: null, updated_by_id: null },
    ],
    permissions: ([
      ['plugin::users-permissions.user.me', 1],
      ['plugin::users-permissions.auth.changePassword', 1],
      ['api::article.article.update', 1],
      ['plugin::users-permissions.auth.callback', 2],
      ['plugin::users-permissions.auth.connect', 2],
      ['plugin::users-permissions.auth.forgotPassword', 2],
      ['plugin::users-permissions.auth.resetPassword', 2],
      ['plugin::users-permissions.auth.emailConfirmation', 2],
      ['plugin::users-permissions.auth.sendEmailConfirmation', 2],
      ['api::article.article.find', 2],
      ['api::article.article.findOne', 2],
      ['api::tag.tag.find', 3],
      ['api::article.article.create', 3],
      ['plugin::email.email.send', 3],
      ['api::gone.gone.find', 4],
    ] as [string, number][]).map(([action], i) => ({ id: i + 1, action, ...stamps, created_by_id: null, updated_by_id: null })),
    permissionRoleLinks: [
      ...[1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4].map((role, i) => ({ id: i + 1, permission_id: i + 1, role_id: role, permission_order: i + 1 })),
      { id: 99, permission_id: 404, role_id: 1, permission_order: 1 },
    ],
    userRoleLinks: [
      { id: 1, user_id: 1, role_id: 3, user_order: 1 },
      { id: 2, user_id: 2, role_id: 1, user_order: 2 },
      { id: 3, user_id: 3, role_id: 1, user_order: null },
      { id: 4, user_id: 2, role_id: 3, user_order: 3 },
      { id: 5, user_id: 5, role_id: 1, user_order: 4 },
    ],
    apiTokens: [
      { id: 1, name: 'full', description: 'full access', type: 'full-access', access_key: stored(keys[0]!), last_used_at: null, expires_at: null, lifespan: null, ...stamps, created_by_id: null, updated_by_id: null },
      { id: 2, name: 'ro', description: null, type: 'read-only', access_key: stored(keys[1]!), last_used_at: later, expires_at: new Date('2026-12-04T05:43:41.556Z'), lifespan: 604800000n, ...stamps, created_by_id: null, updated_by_id: null },
      { id: 3, name: 'custom', description: 'tags only', type: 'custom', access_key: stored(keys[2]!), last_used_at: null, expires_at: new Date('2026-01-01T00:00:00Z'), lifespan: 86400000n, ...stamps, created_by_id: null, updated_by_id: null },
      { id: 4, name: 'ro', description: '', type: 'read-only', access_key: stored('another'), last_used_at: null, expires_at: null, lifespan: null, ...stamps, created_by_id: null, updated_by_id: null },
    ],
    apiTokenPermissions: ['api::tag.tag.find', 'api::tag.tag.findOne', 'api::article.article.find', 'plugin::content-type-builder.components.getComponents'].map((action, i) => ({ id: i + 1, action, ...stamps })),
    apiTokenPermissionLinks: [
      { id: 1, api_token_permission_id: 2, api_token_id: 3, api_token_permission_order: 2 },
      { id: 2, api_token_permission_id: 1, api_token_id: 3, api_token_permission_order: 1 },
      { id: 3, api_token_permission_id: 3, api_token_id: 3, api_token_permission_order: 3 },
      { id: 4, api_token_permission_id: 4, api_token_id: 3, api_token_permission_order: 4 },
    ],
    webhooks: [
      { id: 1, name: 'hook1', url: 'https://example.com/hook', headers: { 'X-Secret': 'abc', 'X-Site': 'blog' }, events: ['entry.create', 'entry.update', 'media.create'], enabled: true },
      { id: 2, name: 'hook1', url: 'http://10.0.0.5/internal', headers: {}, events: ['entry.publish', 'review-workflows.updateEntryStage'], enabled: false },
      { id: 3, name: 'broken', url: 'not a url', headers: {}, events: [], enabled: true },
    ],
    coreStore: [
      { id: 1, key: 'plugin_users-permissions_advanced', value: JSON.stringify({ unique_email: true, allow_register: false, email_confirmation: true, email_reset_password: 'https://site.example/reset', email_confirmation_redirection: '', default_role: 'content_editor' }), type: 'object', environment: null, tag: null },
      {
        id: 2,
        key: 'plugin_users-permissions_email',
        value: JSON.stringify({
          reset_password: { display: 'Email.template.reset_password', icon: 'sync', options: { from: { name: 'Site', email: 'hello@site.example' }, response_email: 'support@site.example', object: 'Your new password', message: '<p>Hi <%= USER.username %>: <%= URL %>?code=<%= TOKEN %></p>' } },
          email_confirmation: {
            display: 'Email.template.email_confirmation',
            icon: 'check-square',
            options: { from: { name: 'Site', email: 'hello@site.example' }, response_email: 'support@site.example', object: 'Account confirmation', message: '<p>Thank you for registering!</p>\r\n\r\n<p>You have to confirm your email address. Please click on the link below.</p>\r\n\r\n<p><%= URL %>?confirmation=<%= CODE %></p>\r\n\r\n<p>Thanks.</p>' },
          },
        }),
        type: 'object',
        environment: null,
        tag: null,
      },
      { id: 3, key: 'plugin_users-permissions_grant', value: JSON.stringify({ email: { enabled: true, icon: 'envelope' }, github: { enabled: true, key: 'gh-key', secret: 'gh-secret', callback: '/api/connect/github/callback', scope: ['user', 'user:email'] }, google: { enabled: false, key: '', secret: '' } }), type: 'object', environment: null, tag: null },
      { id: 4, key: 'plugin_i18n_default_locale', value: '"en"', type: 'string', environment: null, tag: null },
    ],
    adminUserCount: 1,
    transferTokenCount: 1,
    releases: [
      { id: 1, name: 'Black Friday', released_at: null, scheduled_at: new Date('2026-11-28T08:00:00Z'), ...stamps },
      { id: 2, name: 'Launch', released_at: t0, scheduled_at: null, ...stamps },
    ],
  };
}

let ir: Schema;
let result: AuthImport;
const now = new Date('2026-11-27T12:00:00Z');
const tableOf = (name: string) => result.tables.find((t) => t.table === name)!.rows;
const fileOf = (file: string) => result.files.find((f) => f.path === file)!;
const notesAbout = (text: string) => result.notes.filter((line) => line.includes(text));

beforeAll(async () => {
  // The blog models with attributes of the project's own on the user (Strapi's extension folder).
  const dir = await tempDir('import-auth-models');
  try {
    await cp(modelsOf('blog'), dir, { recursive: true });
    const extension = path.join(dir, 'extensions/users-permissions/content-types/user');
    await mkdir(extension, { recursive: true });
    await writeFile(path.join(extension, 'schema.json'), JSON.stringify({ attributes: { nickname: { type: 'string' }, newsletter: { type: 'boolean' } } }));
    // A project's config/server.js webhooks.defaultHeaders: a literal credential, a plain header, an env read.
    const projectConfig = {
      environment: 'development',
      files: ['config/server.js'],
      server: { webhooks: { defaultHeaders: { Authorization: 'Bearer from-server-js', 'X-From': 'strapi', 'X-Env-Token': 'value-of-HOOK_TOKEN-at-build' } } },
      api: {},
      plugins: {},
      sources: { 'server:webhooks.defaultHeaders.X-Env-Token': { name: 'HOOK_TOKEN', kind: 'string' } },
      derived: {},
    } as unknown as ProjectConfig;
    ir = { ...buildIr(await loadModels(dir), 'sqlite'), projectConfig };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  result = importAuth(strapiTables(), { ir, now });
});

describe('users', () => {
  it('keeps ids, password hashes, flags and the project\'s own attributes; stores reset and confirmation codes as the server looks them up; drops creator columns', () => {
    const [editor, reader, octo] = tableOf('up_users');
    expect(editor).toEqual({
      id: 1, username: 'editor', email: 'editor@example.com', provider: 'local', password: '$2a$10$0MDTsl7LTeg.sCfgtUg2eeH9ICIRPUNosNE3x2kB70QKjjvDHe/ra',
      reset_password_token: hashCode(resetCode), confirmation_token: null, confirmed: true, blocked: false, created_at: t0, updated_at: later, nickname: 'Ed', newsletter: true,
      // Strapi 5's identity, new for a Strapi 4 row (docs/strapi5.md).
      document_id: expect.stringMatching(/^[a-z][a-z0-9]{23}$/),
    });
    expect(notesAbout("up_users: 1 column of Strapi's that the user model here does not have, left out: legacy_score")).toHaveLength(1);
    // What the reader decodes and the writer encodes up_users by: the server's user type.
    expect(result.tables.find((t) => t.table === 'up_users')!.types).toEqual(userColumnTypes(ir));
    expect(userColumnTypes(ir)).toMatchObject({ username: 'string', confirmed: 'boolean', created_at: 'datetime', nickname: 'string', newsletter: 'boolean' });
    expect(reader!.confirmation_token).toBe(createHash('sha256').update(confirmationCode).digest('hex'));
    expect(reader!.confirmed).toBe(false);
    expect(octo).toMatchObject({ id: 3, provider: 'github', blocked: true, password: null });
  });

  it('refuses a second user with a username already taken, naming its id', () => {
    expect(tableOf('up_users').map((u) => u.id)).toEqual([1, 2, 3, 4]);
    expect(result.problems).toContainEqual(expect.objectContaining({ table: 'up_users', rows: [5] }));
  });

  it('links each user to one role, in Strapi order renumbered per role; extra and dangling links are problems', () => {
    expect(tableOf('up_users_role_links')).toEqual([
      { user_id: 1, role_id: 3, role_order: 1, user_order: 1 },
      { user_id: 2, role_id: 1, role_order: 1, user_order: 2 },
      { user_id: 3, role_id: 1, role_order: 1, user_order: 1 },
    ]);
    expect(result.problems).toContainEqual(expect.objectContaining({ table: 'up_users_role_links', rows: [4] }));
    expect(result.problems).toContainEqual(expect.objectContaining({ table: 'up_users_role_links', rows: [5] }));
  });

  it('says what OAuth users, users without a role and passwords the server cannot verify mean', () => {
    expect(notesAbout('OAuth provider (github: 1)')).toHaveLength(1);
    expect(notesAbout('1 user without a role (ids 4)')).toHaveLength(1);
    expect(notesAbout('1 password not stored as a bcrypt hash the server verifies ($2a$ or $2b$; ids 4)')).toHaveLength(1);
  });
});

describe('roles and permissions', () => {
  it('writes permissions.json that the build accepts, without the default actions the server always grants; custom roles under their Strapi names', async () => {
    const file = fileOf('permissions.json');
    expect(file).toMatchObject({ root: 'models', kind: 'permissions' });
    expect(JSON.parse(file.content)).toEqual({
      authenticated: ['api::article.article.update'],
      content_editor: { name: 'Content Editor', description: 'Writes articles', actions: ['api::article.article.create', 'api::tag.tag.find'] },
      public: ['api::article.article.find', 'api::article.article.findOne'],
      role_2nd_shift: { name: '2nd Shift', description: '', actions: [] },
    });
    const dir = await tempDir('import-auth-models');
    try {
      await cp(modelsOf('blog'), dir, { recursive: true });
      await writeFile(path.join(dir, 'permissions.json'), file.content);
      expect(validateModels(await loadModels(dir))).toEqual([]);
      // The build names the roles as Strapi did.
      const roles = roleDefinitions(buildIr(await loadModels(dir), 'sqlite'));
      // In the order a new database creates them: Authenticated, Public, then by type (Strapi 4.26.2's ids).
      expect(roles.map((r) => [r.type, r.name, r.description])).toEqual([
        ['authenticated', 'Authenticated', 'Default role given to authenticated user.'],
        ['public', 'Public', 'Default role given to unauthenticated user.'],
        ['content_editor', 'Content Editor', 'Writes articles'],
        ['role_2nd_shift', '2nd Shift', ''],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps role ids and Strapi\'s names, and reports what permissions.json cannot say', () => {
    expect(tableOf('up_roles').map((r) => [r.id, r.type, r.name, r.description])).toEqual([
      [1, 'authenticated', 'Authenticated', 'Default role given to authenticated user.'],
      [2, 'public', 'Public', 'Default role given to unauthenticated user.'],
      [3, 'content_editor', 'Content Editor', 'Writes articles'],
      [4, 'role_2nd_shift', '2nd Shift', ''],
    ]);
    expect(notesAbout('type "2nd_shift" is not a role type')).toHaveLength(1);
    expect(notesAbout('plugin::email.email.send')).toHaveLength(1);
    expect(notesAbout('api::gone.gone.find')).toHaveLength(1);
    expect(notesAbout('role "public" did not grant plugin::users-permissions.auth.register')).toHaveLength(1);
    expect(result.problems).toContainEqual(expect.objectContaining({ table: 'up_permissions_role_links', rows: [99] }));
  });
});

describe('API tokens', () => {
  it('copies the stored HMAC, type, expiry and last use; folds a custom token\'s actions in Strapi order, leaving out those not served', () => {
    const tokens = tableOf('strapi_api_tokens');
    expect(tokens.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(tokens[0]).toEqual({ id: 1, name: 'full', description: 'full access', type: 'full-access', access_key: stored(keys[0]!), permissions: [], last_used_at: null, expires_at: null, lifespan: null, created_at: t0, updated_at: later });
    expect(tokens[1]).toMatchObject({ description: '', type: 'read-only', last_used_at: later, expires_at: new Date('2026-12-04T05:43:41.556Z'), lifespan: 604800000n });
    expect(tokens[2]).toMatchObject({ type: 'custom', permissions: ['api::tag.tag.find', 'api::tag.tag.findOne', 'api::article.article.find'] });
    expect(notesAbout('plugin::content-type-builder.components.getComponents')).toHaveLength(1);
    expect(notesAbout('had expired already and stay expired: custom')).toHaveLength(1);
    expect(notesAbout('API_TOKEN_SALT')).toHaveLength(1);
    expect(result.problems).toContainEqual(expect.objectContaining({ table: 'strapi_api_tokens', rows: [4] }));
  });
});

describe('settings and webhooks', () => {
  let dir: string;
  let imported: { advanced: unknown; email: unknown; webhooks: () => UserConfig['webhooks']; strapiEmailTemplates?: Record<string, { object: string; message: string }> };

  beforeAll(async () => {
    // The module as the server compiles it, loaded and fed to the server's own config resolver.
    dir = await tempDir('import-auth-config');
    const source = fileOf('src/config.imported.ts').content;
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    await writeFile(path.join(dir, 'config.imported.mjs'), js);
    imported = await import(pathToFileURL(path.join(dir, 'config.imported.mjs')).href);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('compiles as part of a server (checked against the config types)', async () => {
    const src = path.join(dir, 'server', 'src');
    await mkdir(src, { recursive: true });
    await symlink(path.join(repoRoot, 'templates', 'runtime'), path.join(src, 'runtime'));
    await writeFile(path.join(dir, 'server', 'package.json'), '{ "type": "module" }');
    const file = path.join(src, 'config.imported.ts');
    await writeFile(file, fileOf('src/config.imported.ts').content);
    const program = ts.createProgram([file], { target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true, types: ['node'] });
    const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });

  it('carries the advanced settings and the sender into config the server resolves', () => {
    const config = resolveConfig({ plugins: { 'users-permissions': { advanced: imported.advanced, email: imported.email } } } as UserConfig, {});
    expect(config.plugins['users-permissions'].advanced).toEqual({
      unique_email: true, allow_register: false, email_confirmation: true, email_reset_password: 'https://site.example/reset', email_confirmation_redirection: null, default_role: 'content_editor',
    });
    expect(config.plugins['users-permissions'].email).toEqual({ from: 'Site <hello@site.example>', replyTo: 'support@site.example' });
  });

  it('keeps an edited template for src/email.ts and ignores a default one that only changed line endings', () => {
    expect(Object.keys(imported.strapiEmailTemplates ?? {})).toEqual(['reset_password']);
    expect(imported.strapiEmailTemplates!.reset_password!.object).toBe('Your new password');
    expect(notesAbout('the reset_password template was edited')).toHaveLength(1);
    expect(notesAbout('email_confirmation template')).toHaveLength(0);
  });

  it('writes webhooks the server accepts, credential-like headers read from the environment', () => {
    expect(() => imported.webhooks()).toThrow(/WEBHOOK_DEFAULT_AUTHORIZATION is not set/);
    const secrets = fileOf('strapi-import/webhook-secrets.env');
    expect(secrets.kind).toBe('secrets');
    expect(secrets.content).toContain('WEBHOOK_HOOK1_X_SECRET="abc"');
    expect(secrets.content).toContain('WEBHOOK_DEFAULT_AUTHORIZATION="Bearer from-server-js"');
    expect(secrets.content).not.toContain('HOOK_TOKEN=');
    expect(fileOf('src/config.imported.ts').content).not.toMatch(/'abc'|from-server-js|value-of-HOOK_TOKEN/);
    const env = { WEBHOOK_HOOK1_X_SECRET: 'abc', WEBHOOK_DEFAULT_AUTHORIZATION: 'Bearer from-server-js', HOOK_TOKEN: 't0k3n' };
    Object.assign(process.env, env);
    try {
      const { webhooks } = resolveConfig({ webhooks: imported.webhooks() } as UserConfig, {});
      expect(webhooks.defaultHeaders).toEqual({ Authorization: 'Bearer from-server-js', 'X-From': 'strapi', 'X-Env-Token': 't0k3n' });
      expect(webhooks.endpoints).toEqual([
        { name: 'hook1', url: 'https://example.com/hook', headers: { 'X-Secret': 'abc', 'X-Site': 'blog' }, events: ['entry.create', 'entry.update', 'media.create'], isEnabled: true },
        { name: 'hook1 (2)', url: 'http://10.0.0.5/internal', headers: {}, events: ['entry.publish'], isEnabled: false },
      ]);
    } finally {
      for (const name of Object.keys(env)) delete process.env[name];
    }
    expect(notesAbout('review-workflows.updateEntryStage')).toHaveLength(1);
    expect(notesAbout('10.0.0.5, a private or loopback address')).toHaveLength(1);
    expect(notesAbout('webhook 3 has no http(s) URL')).toHaveLength(1);
  });

  it('names what has no home: OAuth providers, admin users, transfer tokens, pending releases', () => {
    expect(notesAbout('OAuth login through github was enabled')).toHaveLength(1);
    expect(result.notes.join('\n')).not.toContain('gh-secret');
    expect(notesAbout('admin_users: 1 admin panel user')).toHaveLength(1);
    expect(notesAbout('strapi_transfer_tokens: 1 transfer token')).toHaveLength(1);
    expect(notesAbout('2 releases not imported')[0]).toContain('Black Friday');
  });
});
