/**
 * The users-permissions and upload plugins' GraphQL parts (Strapi v4 §8.5–8.6), registered
 * through the extension service exactly as a user extension would be: settings first
 * (permissions have no queries or mutations; user and role CRUD mutations are replaced),
 * then `use()` with type definitions, resolversConfig and — on the server — resolvers
 * (plugin-resolvers.ts). This file has no runtime dependencies: the generator runs it.
 */
import { print, type DefinitionNode } from 'graphql';
import type { Registry } from '../meta.js';
import { document, inputType, objectType, objectTypeExtension, type FieldSpec } from './ast.js';
import type { GraphqlExtensionService, ResolverConfig, ResolverMap, TypeRegistry } from './extension.js';
import * as naming from './naming.js';
import { registerI18n, type LocalizationResolvers } from './i18n.js';

const userUid = 'plugin::users-permissions.user';
const roleUid = 'plugin::users-permissions.role';
const permissionUid = 'plugin::users-permissions.permission';
const fileUid = 'plugin::upload.file';

/** Mutation names of the users-permissions plugin. */
export interface UsersPermissionsNames {
  readonly createRole: string;
  readonly updateRole: string;
  readonly deleteRole: string;
  readonly createUser: string;
  readonly updateUser: string;
  readonly deleteUser: string;
}

/** The plugins' resolvers (plugin-resolvers.ts, on the server). */
export interface PluginResolvers {
  usersPermissions(names: UsersPermissionsNames, has: { readonly hasUsers: boolean; readonly hasRoles: boolean }): ResolverMap;
  /** Undefined when the server has no upload plugin. */
  upload?(): ResolverMap;
  /** createXLocalization of a localized type (i18n.ts). */
  i18n?: LocalizationResolvers;
}

/**
 * Registers both plugins on `extension`. Without `runtime` (the generator printing
 * schema.graphql) only their types and settings are registered.
 */
export function registerPlugins(extension: GraphqlExtensionService, registry: Registry, runtime?: PluginResolvers): void {
  if (registry.contentTypes.has(userUid)) registerUsersPermissions(extension, registry, runtime);
  if (registry.contentTypes.has(fileUid)) registerUpload(extension, registry, runtime);
  registerI18n(extension, registry, runtime?.i18n);
}

const sdl = (definitions: DefinitionNode[]): string => print(document(definitions));

/** The users-permissions plugin's mutation names (the same in Strapi 5's schema). */
export function usersPermissionsNames(registry: Registry): UsersPermissionsNames {
  const user = registry.contentTypes.get(userUid)!;
  const role = registry.contentTypes.get(roleUid)!;
  return {
    createRole: naming.createMutationName(role),
    updateRole: naming.updateMutationName(role),
    deleteRole: naming.deleteMutationName(role),
    createUser: naming.createMutationName(user),
    updateUser: naming.updateMutationName(user),
    deleteUser: naming.deleteMutationName(user),
  };
}

/** Who may run the users-permissions plugin's operations (Strapi's resolversConfig), for both GraphQL endpoints. */
export function usersPermissionsAuth(names: UsersPermissionsNames): Record<string, ResolverConfig> {
  return {
    'Mutation.login': { auth: false },
    'Mutation.register': { auth: false },
    'Mutation.forgotPassword': { auth: false },
    'Mutation.resetPassword': { auth: false },
    'Mutation.emailConfirmation': { auth: false },
    'Mutation.changePassword': { auth: { scope: 'plugin::users-permissions.auth.changePassword' } },
    [`Mutation.${names.createRole}`]: { auth: { scope: [`${roleUid}.createRole`] } },
    [`Mutation.${names.updateRole}`]: { auth: { scope: [`${roleUid}.updateRole`] } },
    [`Mutation.${names.deleteRole}`]: { auth: { scope: [`${roleUid}.deleteRole`] } },
    [`Mutation.${names.createUser}`]: { auth: { scope: [`${userUid}.create`] } },
    [`Mutation.${names.updateUser}`]: { auth: { scope: [`${userUid}.update`] } },
    [`Mutation.${names.deleteUser}`]: { auth: { scope: [`${userUid}.destroy`] } },
  };
}

// ---------------------------------------------------------------------------------------
// users-permissions

function registerUsersPermissions(extension: GraphqlExtensionService, registry: Registry, runtime?: PluginResolvers): void {
  extension.shadowCRUD(permissionUid).disableQueries().disableMutations();
  extension.shadowCRUD(userUid).disableActions(['create', 'update', 'delete']);
  extension.shadowCRUD(roleUid).disableActions(['create', 'update', 'delete']);

  const user = registry.contentTypes.get(userUid)!;
  const role = registry.contentTypes.get(roleUid)!;
  const names = usersPermissionsNames(registry);

  extension.use(({ typeRegistry }: { typeRegistry: TypeRegistry }) => {
    const userResponse = naming.entityResponseName(user);
    const userInput = naming.inputName(user);
    const roleInput = naming.inputName(role);
    const hasUsers = typeRegistry.has(userResponse) && typeRegistry.has(userInput);
    const hasRoles = typeRegistry.has(roleInput);
    const payload = (name: string) => objectType(name, [{ name: 'ok', type: 'Boolean!' }]);
    // Descriptions: Strapi's own (its plugin's mutation definitions), typos included.
    const mutations: FieldSpec[] = [
      ...(hasRoles
        ? [
            { name: names.createRole, description: 'Create a new role', type: 'UsersPermissionsCreateRolePayload', args: [{ name: 'data', type: `${roleInput}!` }] },
            { name: names.updateRole, description: 'Update an existing role', type: 'UsersPermissionsUpdateRolePayload', args: [{ name: 'id', type: 'ID!' }, { name: 'data', type: `${roleInput}!` }] },
            { name: names.deleteRole, description: 'Delete an existing role', type: 'UsersPermissionsDeleteRolePayload', args: [{ name: 'id', type: 'ID!' }] },
          ]
        : []),
      ...(hasUsers
        ? [
            { name: names.createUser, description: 'Create a new user', type: `${userResponse}!`, args: [{ name: 'data', type: `${userInput}!` }] },
            { name: names.updateUser, description: 'Update an existing user', type: `${userResponse}!`, args: [{ name: 'id', type: 'ID!' }, { name: 'data', type: `${userInput}!` }] },
            { name: names.deleteUser, description: 'Delete an existing user', type: `${userResponse}!`, args: [{ name: 'id', type: 'ID!' }] },
          ]
        : []),
      { name: 'login', type: 'UsersPermissionsLoginPayload!', args: [{ name: 'input', type: 'UsersPermissionsLoginInput!' }] },
      { name: 'register', description: 'Register a user', type: 'UsersPermissionsLoginPayload!', args: [{ name: 'input', type: 'UsersPermissionsRegisterInput!' }] },
      { name: 'forgotPassword', description: 'Request a reset password token', type: 'UsersPermissionsPasswordPayload', args: [{ name: 'email', type: 'String!' }] },
      {
        name: 'resetPassword',
        description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
        type: 'UsersPermissionsLoginPayload',
        args: [
          { name: 'password', type: 'String!' },
          { name: 'passwordConfirmation', type: 'String!' },
          { name: 'code', type: 'String!' },
        ],
      },
      {
        name: 'changePassword',
        description: 'Change user password. Confirm with the current password.',
        type: 'UsersPermissionsLoginPayload',
        args: [
          { name: 'currentPassword', type: 'String!' },
          { name: 'password', type: 'String!' },
          { name: 'passwordConfirmation', type: 'String!' },
        ],
      },
      { name: 'emailConfirmation', description: 'Confirm an email users email address', type: 'UsersPermissionsLoginPayload', args: [{ name: 'confirmation', type: 'String!' }] },
    ];
    const typeDefs = sdl([
      objectType('UsersPermissionsMe', [
        { name: 'id', type: 'ID!' },
        { name: 'username', type: 'String!' },
        { name: 'email', type: 'String' },
        { name: 'confirmed', type: 'Boolean' },
        { name: 'blocked', type: 'Boolean' },
        { name: 'role', type: 'UsersPermissionsMeRole' },
      ]),
      objectType('UsersPermissionsMeRole', [
        { name: 'id', type: 'ID!' },
        { name: 'name', type: 'String!' },
        { name: 'description', type: 'String' },
        { name: 'type', type: 'String' },
      ]),
      inputType('UsersPermissionsRegisterInput', [
        { name: 'username', type: 'String!' },
        { name: 'email', type: 'String!' },
        { name: 'password', type: 'String!' },
      ]),
      inputType('UsersPermissionsLoginInput', [
        { name: 'identifier', type: 'String!' },
        { name: 'password', type: 'String!' },
        { name: 'provider', type: 'String!', defaultValue: '"local"' },
      ]),
      objectType('UsersPermissionsLoginPayload', [
        { name: 'jwt', type: 'String' },
        { name: 'user', type: 'UsersPermissionsMe!' },
      ]),
      payload('UsersPermissionsPasswordPayload'),
      ...(hasRoles ? [payload('UsersPermissionsCreateRolePayload'), payload('UsersPermissionsUpdateRolePayload'), payload('UsersPermissionsDeleteRolePayload')] : []),
      objectTypeExtension('Query', [{ name: 'me', type: 'UsersPermissionsMe' }]),
      objectTypeExtension('Mutation', mutations),
    ]);
    const resolversConfig = usersPermissionsAuth(names);
    return {
      typeDefs,
      resolversConfig,
      ...(runtime ? { resolvers: runtime.usersPermissions(names, { hasUsers, hasRoles }) } : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------
// upload

export const uploadScopes = {
  upload: 'plugin::upload.content-api.upload',
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  destroy: 'plugin::upload.content-api.destroy',
};

function registerUpload(extension: GraphqlExtensionService, registry: Registry, runtime?: PluginResolvers): void {
  const file = registry.contentTypes.get(fileUid)!;
  const response = naming.entityResponseName(file);
  extension.use(({ typeRegistry }: { typeRegistry: TypeRegistry }) => {
    const resolversConfig: Record<string, ResolverConfig> = {
      [`Query.${naming.findQueryName(file)}`]: { auth: { scope: uploadScopes.find } },
      [`Query.${naming.findOneQueryName(file)}`]: { auth: { scope: uploadScopes.findOne } },
      [`Mutation.${naming.createMutationName(file)}`]: { auth: { scope: uploadScopes.upload } },
      [`Mutation.${naming.updateMutationName(file)}`]: { auth: { scope: uploadScopes.upload } },
      [`Mutation.${naming.deleteMutationName(file)}`]: { auth: { scope: uploadScopes.destroy } },
    };
    // Disabled upload type: nothing to return files as.
    if (!typeRegistry.has(response)) return { resolversConfig };
    const typeDefs = sdl([
      inputType('FileInfoInput', [
        { name: 'name', type: 'String' },
        { name: 'alternativeText', type: 'String' },
        { name: 'caption', type: 'String' },
      ]),
      objectTypeExtension('Mutation', [
        {
          name: 'upload',
          type: `${response}!`,
          args: [
            { name: 'refId', type: 'ID' },
            { name: 'ref', type: 'String' },
            { name: 'field', type: 'String' },
            { name: 'info', type: 'FileInfoInput' },
            { name: 'file', type: 'Upload!' },
          ],
        },
        {
          name: 'multipleUpload',
          type: `[${response}]!`,
          args: [
            { name: 'refId', type: 'ID' },
            { name: 'ref', type: 'String' },
            { name: 'field', type: 'String' },
            { name: 'files', type: '[Upload]!' },
          ],
        },
        { name: 'updateFileInfo', type: `${response}!`, args: [{ name: 'id', type: 'ID!' }, { name: 'info', type: 'FileInfoInput' }] },
        { name: 'removeFile', type: response, args: [{ name: 'id', type: 'ID!' }] },
      ]),
    ]);
    Object.assign(resolversConfig, {
      'Mutation.upload': { auth: { scope: uploadScopes.upload } },
      'Mutation.multipleUpload': { auth: { scope: uploadScopes.upload } },
      'Mutation.updateFileInfo': { auth: { scope: uploadScopes.upload } },
      'Mutation.removeFile': { auth: { scope: uploadScopes.destroy } },
    });
    return { typeDefs, resolversConfig, ...(runtime?.upload ? { resolvers: runtime.upload() } : {}) };
  });
}
