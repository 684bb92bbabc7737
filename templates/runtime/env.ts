/**
 * Strapi's `env` helper, for src/config.ts: `env('NAME', default)` and its typed forms read
 * an environment variable, or give the default when it is not set. A config seeded from a
 * Strapi project keeps its `env(...)` reads this way.
 */
type Env = {
  (name: string): string | undefined;
  <T>(name: string, defaultValue: T): string | T;
  int<T = undefined>(name: string, defaultValue?: T): number | T;
  float<T = undefined>(name: string, defaultValue?: T): number | T;
  bool<T = undefined>(name: string, defaultValue?: T): boolean | T;
  json<T = undefined>(name: string, defaultValue?: T): unknown;
  array<T = undefined>(name: string, defaultValue?: T): string[] | T;
  date<T = undefined>(name: string, defaultValue?: T): Date | T;
  oneOf<T = undefined>(name: string, values: readonly unknown[], defaultValue?: T): unknown;
};

const has = (name: string) => Object.prototype.hasOwnProperty.call(process.env, name) && process.env[name] !== undefined;

export const env: Env = Object.assign((name: string, defaultValue?: unknown) => (has(name) ? process.env[name] : defaultValue), {
  int: (name: string, defaultValue?: unknown) => (has(name) ? parseInt(process.env[name]!, 10) : defaultValue),
  float: (name: string, defaultValue?: unknown) => (has(name) ? parseFloat(process.env[name]!) : defaultValue),
  bool: (name: string, defaultValue?: unknown) => (has(name) ? process.env[name] === 'true' : defaultValue),
  json: (name: string, defaultValue?: unknown) => {
    if (!has(name)) return defaultValue;
    try {
      return JSON.parse(process.env[name]!);
    } catch (e) {
      throw new Error(`Invalid json environment variable ${name}: ${(e as Error).message}`);
    }
  },
  array: (name: string, defaultValue?: unknown) => {
    if (!has(name)) return defaultValue;
    let value = process.env[name]!;
    if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
    return value.split(',').map((v) => v.trim().replace(/^"+|"+$/g, ''));
  },
  date: (name: string, defaultValue?: unknown) => (has(name) ? new Date(process.env[name]!) : defaultValue),
  oneOf: (name: string, values: readonly unknown[], defaultValue?: unknown) => {
    const value = has(name) ? process.env[name] : defaultValue;
    if (!values.includes(value)) throw new Error(`env.oneOf: ${name} must be one of ${JSON.stringify(values)}`);
    return value;
  },
}) as Env;
