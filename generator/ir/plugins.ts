import { i18nActions, localeContentType, localeUid } from './i18n.js';

/**
 * Content types that plugins bring, in Strapi's own schema format, so they go through the
 * same validation, IR and emitters as the user's models: the users-permissions user, role
 * and permission, and the upload plugin's file and folder. Relations may target them
 * (`plugin::users-permissions.user`, `plugin::upload.file`).
 *
 * The user model can be extended like Strapi's: attributes from
 * `extensions/users-permissions/content-types/user/schema.json` are added to these.
 */
export interface PluginContentType {
  readonly uid: string;
  readonly plugin: 'users-permissions' | 'upload' | 'i18n';
  readonly json: Record<string, unknown>;
}

export const pluginContentTypes: readonly PluginContentType[] = [
  {
    uid: 'plugin::upload.file',
    plugin: 'upload',
    json: {
      kind: 'collectionType',
      collectionName: 'files',
      info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', required: true },
        alternativeText: { type: 'string' },
        caption: { type: 'string' },
        width: { type: 'integer' },
        height: { type: 'integer' },
        formats: { type: 'json' },
        hash: { type: 'string', required: true },
        ext: { type: 'string' },
        mime: { type: 'string', required: true },
        size: { type: 'decimal', required: true },
        url: { type: 'string', required: true },
        previewUrl: { type: 'string' },
        provider: { type: 'string', required: true },
        provider_metadata: { type: 'json' },
        // Strapi's media library folders: private, set by the upload service (`/` for files
        // uploaded through the APIs), writable through updateUploadFile as in Strapi.
        folder: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'files', private: true },
        folderPath: { type: 'string', minLength: 1, required: true, private: true },
      },
    },
  },
  {
    // No REST routes (Strapi's are the admin panel's); GraphQL's Shadow CRUD serves it.
    uid: 'plugin::upload.folder',
    plugin: 'upload',
    json: {
      kind: 'collectionType',
      collectionName: 'upload_folders',
      info: { singularName: 'folder', pluralName: 'folders', displayName: 'Folder' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', minLength: 1, required: true },
        pathId: { type: 'integer', unique: true, required: true },
        parent: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'children' },
        children: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.folder', mappedBy: 'parent' },
        files: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.file', mappedBy: 'folder' },
        path: { type: 'string', minLength: 1, required: true },
      },
    },
  },
  // The i18n plugin's locales (ir/i18n.ts), between the upload and users-permissions types as in Strapi.
  { uid: localeUid, plugin: 'i18n', json: localeContentType },
  {
    uid: 'plugin::users-permissions.permission',
    plugin: 'users-permissions',
    json: {
      kind: 'collectionType',
      collectionName: 'up_permissions',
      info: { singularName: 'permission', pluralName: 'permissions', displayName: 'Permission' },
      options: { draftAndPublish: false },
      attributes: {
        action: { type: 'string', required: true },
        role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'permissions' },
      },
    },
  },
  {
    uid: 'plugin::users-permissions.role',
    plugin: 'users-permissions',
    json: {
      kind: 'collectionType',
      collectionName: 'up_roles',
      info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', minLength: 3, required: true },
        description: { type: 'string' },
        type: { type: 'string', unique: true },
        permissions: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.permission', mappedBy: 'role' },
        users: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'role' },
      },
    },
  },
  {
    uid: 'plugin::users-permissions.user',
    plugin: 'users-permissions',
    json: {
      kind: 'collectionType',
      collectionName: 'up_users',
      info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
      options: { draftAndPublish: false },
      attributes: {
        username: { type: 'string', minLength: 3, unique: true, required: true },
        email: { type: 'email', minLength: 6, required: true },
        provider: { type: 'string' },
        password: { type: 'password', minLength: 6, private: true },
        resetPasswordToken: { type: 'string', private: true },
        confirmationToken: { type: 'string', private: true },
        confirmed: { type: 'boolean', default: false },
        blocked: { type: 'boolean', default: false },
        role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
      },
    },
  },
];

/** `plugin::users-permissions.user` → `users-permissions` */
export function pluginOf(uid: string): string | undefined {
  return /^plugin::([^.]+)\./.exec(uid)?.[1];
}

/**
 * Content-API actions of the users-permissions plugin, by controller, in the order of
 * Strapi's controller objects (the order `GET /api/users-permissions/permissions` lists).
 */
export const usersPermissionsActions: Readonly<Record<string, readonly string[]>> = {
  auth: ['callback', 'changePassword', 'resetPassword', 'connect', 'forgotPassword', 'register', 'emailConfirmation', 'sendEmailConfirmation'],
  user: ['create', 'update', 'find', 'findOne', 'count', 'destroy', 'me'],
  role: ['createRole', 'findOne', 'find', 'updateRole', 'deleteRole'],
  permissions: ['getPermissions'],
};

/** Content-API actions of the upload plugin (`plugin::upload.content-api.<action>`). */
export const uploadActions: readonly string[] = ['find', 'findOne', 'destroy', 'upload'];

/** Every plugin action a role or token may be granted, e.g. `plugin::users-permissions.user.me`. */
export const pluginActions: readonly string[] = [
  ...Object.entries(usersPermissionsActions).flatMap(([controller, actions]) => actions.map((a) => `plugin::users-permissions.${controller}.${a}`)),
  ...uploadActions.map((a) => `plugin::upload.content-api.${a}`),
  ...i18nActions,
];

/**
 * Prisma models contentgen emits for plugin tables that are not content types: their model
 * names are taken before any content type's (ir/names.ts), their tables may not be a
 * content type's.
 */
export const internalModels: readonly { readonly model: string; readonly table: string }[] = [
  { model: 'AdminApiToken', table: 'strapi_api_tokens' },
  { model: 'UsersPermissionsRateLimit', table: 'up_rate_limits' },
  { model: 'ContentgenComponentId', table: 'contentgen_component_ids' },
  { model: 'ContentgenWebhookDelivery', table: 'contentgen_webhook_deliveries' },
];

/** Tables a content type, component or link may not use: contentgen's own, and Prisma's migration log. */
export const internalTables: readonly string[] = [...internalModels.map((m) => m.table), '_prisma_migrations'];
