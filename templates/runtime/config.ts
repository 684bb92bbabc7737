/**
 * Server settings: code defaults, overridden by the user's src/config.ts, overridden by
 * environment variables (PORT, HOST, DATABASE_URL).
 */
export interface ServerConfig {
  host: string;
  diagnostics: {
    /** Adds `Server-Timing: db;dur=…;desc="N queries"` to responses (env SERVER_TIMING=1). */
    serverTiming: boolean;
  };
  port: number;
  /** Prisma-style URL: `file:./data/data.db`, `postgresql://…`, `mysql://…`. */
  databaseUrl: string;
  api: {
    rest: {
      prefix: string;
      defaultLimit: number;
      maxLimit: number;
      withCount: boolean;
      /** Largest accepted JSON body, in bytes. */
      bodyLimit: number;
      populate: {
        /** Levels of `populate` a request may ask for; `*` counts as one. */
        maxDepth: number;
        /** Entries one populated to-many field may hold per entry; more → 400. */
        maxRelationEntries: number;
      };
    };
  };
}

export type UserConfig = {
  [K in keyof ServerConfig]?: ServerConfig[K] extends object ? DeepPartial<ServerConfig[K]> : ServerConfig[K];
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

export const defaultConfig: ServerConfig = {
  host: '0.0.0.0',
  diagnostics: { serverTiming: false },
  port: 1337,
  databaseUrl: 'file:./data/data.db',
  api: {
    rest: {
      prefix: '/api',
      defaultLimit: 25,
      maxLimit: 100,
      withCount: true,
      bodyLimit: 1024 * 1024,
      populate: { maxDepth: 5, maxRelationEntries: 100 },
    },
  },
};

export function resolveConfig(user: UserConfig, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const rest = {
    ...defaultConfig.api.rest,
    ...user.api?.rest,
    populate: { ...defaultConfig.api.rest.populate, ...user.api?.rest?.populate },
  };
  for (const key of ['defaultLimit', 'maxLimit', 'bodyLimit'] as const) {
    if (!Number.isInteger(rest[key])) throw new Error(`config api.rest.${key} must be an integer, got ${String(rest[key])}`);
  }
  for (const key of ['maxDepth', 'maxRelationEntries'] as const) {
    if (!Number.isInteger(rest.populate[key]) || rest.populate[key] < 1) {
      throw new Error(`config api.rest.populate.${key} must be a positive integer, got ${String(rest.populate[key])}`);
    }
  }
  const port = env.PORT !== undefined && env.PORT !== '' ? Number(env.PORT) : (user.port ?? defaultConfig.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    host: env.HOST || user.host || defaultConfig.host,
    diagnostics: { serverTiming: env.SERVER_TIMING === '1' || (user.diagnostics?.serverTiming ?? defaultConfig.diagnostics.serverTiming) },
    port,
    databaseUrl: env.DATABASE_URL || user.databaseUrl || defaultConfig.databaseUrl,
    api: { rest },
  };
}
