/**
 * The policy table (emitted as src/generated/permissions.ts) and the questions asked of it:
 * may this role do that action, is this an action at all, which actions does a token type
 * allow.
 */

export interface RoleDefinition {
  /** `public`, `authenticated`, or a role type declared in permissions.json. */
  readonly type: string;
  readonly name: string;
  readonly description: string;
  /** Granted actions: `api::article.article.find`, `plugin::users-permissions.user.me`, … */
  readonly actions: readonly string[];
}

export interface PolicyTable {
  /** Sorted by type; `public` and `authenticated` always present. */
  readonly roles: readonly RoleDefinition[];
  /** Every grantable action: `api::article` → controller → action names, in Strapi's order. */
  readonly actions: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';

export const apiTokenTypes: readonly ApiTokenType[] = ['read-only', 'full-access', 'custom'];

/** Strapi's rule for read-only API tokens: the route's scope ends in `find` or `findOne`. */
export function isReadAction(action: string): boolean {
  return action.endsWith('find') || action.endsWith('findOne');
}

export class Policy {
  readonly #roles = new Map<string, RoleDefinition>();
  readonly #granted = new Map<string, ReadonlySet<string>>();
  readonly #known: ReadonlySet<string>;

  constructor(readonly table: PolicyTable) {
    for (const role of table.roles) {
      this.#roles.set(role.type, role);
      this.#granted.set(role.type, new Set(role.actions));
    }
    for (const required of ['public', 'authenticated']) {
      if (!this.#roles.has(required)) throw new Error(`the policy table has no "${required}" role`);
    }
    this.#known = new Set(this.allActions());
  }

  get roles(): readonly RoleDefinition[] {
    return this.table.roles;
  }

  role(type: string): RoleDefinition | undefined {
    return this.#roles.get(type);
  }

  /** Whether the role of this type is granted `action`. Unknown roles are granted nothing. */
  roleCan(type: string, action: string): boolean {
    return this.#granted.get(type)?.has(action) ?? false;
  }

  /** Number of actions granted to a role (Strapi answers 401, not 403, when public has none). */
  grantedCount(type: string): number {
    return this.#granted.get(type)?.size ?? 0;
  }

  isKnownAction(action: string): boolean {
    return this.#known.has(action);
  }

  /** The actions of `list` that the catalog does not know, in the order given. */
  unknownActions(list: readonly string[]): string[] {
    return list.filter((action) => !this.#known.has(action));
  }

  /** Every action of the catalog as `<api>.<controller>.<action>`. */
  allActions(): string[] {
    return Object.entries(this.table.actions).flatMap(([api, controllers]) =>
      Object.entries(controllers).flatMap(([controller, actions]) => actions.map((action) => `${api}.${controller}.${action}`)),
    );
  }

  /**
   * Strapi's permission tree, `{ "api::article": { controllers: { article: { find:
   * { enabled, policy: "" } } } } }`, enabled for the actions `enabled` says.
   */
  permissionTree(enabled: (action: string) => boolean = () => false): Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }> {
    const tree: Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }> = {};
    for (const [api, controllers] of Object.entries(this.table.actions)) {
      const entry: Record<string, Record<string, { enabled: boolean; policy: string }>> = {};
      for (const [controller, actions] of Object.entries(controllers)) {
        entry[controller] = Object.fromEntries(actions.map((a) => [a, { enabled: enabled(`${api}.${controller}.${a}`), policy: '' }]));
      }
      tree[api] = { controllers: entry };
    }
    return tree;
  }
}
