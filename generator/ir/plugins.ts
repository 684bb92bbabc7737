/**
 * Content types that plugins bring, in Strapi's own schema format, so they go through the
 * same validation, IR and emitters as the user's models: the users-permissions user, role
 * and permission, and the upload plugin's file. Relations may target them
 * (`plugin::users-permissions.user`, `plugin::upload.file`).
 *
 * The user model can be extended like Strapi's: attributes from
 * `extensions/users-permissions/content-types/user/schema.json` are added to these.
 */
export interface PluginContentType {
  readonly uid: string;
  readonly plugin: 'users-permissions' | 'upload';
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
      },
    },
  },
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
