/**
 * Prisma's schema engine (diff, migrate) as WebAssembly, so neither the generator nor an emitted
 * server needs the native schema-engine binary, which Prisma downloads on demand and which is
 * unavailable offline.
 *
 * The engine talks to the database only through a Prisma driver adapter factory. It supports the
 * `sqlite` and `postgres` adapter providers; for MySQL it panics ("Unsupported adapter provider"),
 * which kills the process from inside a microtask, so `openSchemaEngine` refuses MySQL up front.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type ErrorRegistry,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { runPostgresScriptsWhole } from './pg-script.js';

export type { SchemaEngine };
type SchemaEngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

/** Engine log lines are JSON objects such as `{ level, fields: { message, sql }, target }`. */
export type EngineLogEntry = { level?: string; fields?: Record<string, unknown>; target?: string };

export interface OpenSchemaEngineOptions {
  /** Receives every log line the engine emits (it logs each SQL statement it runs). */
  onLog?: (entry: EngineLogEntry) => void;
}

/** What `closeSchemaEngine` and `engineErrorMessage` need to know about an open engine. */
interface EngineState {
  errorRegistry: ErrorRegistry;
  connections: SqlDriverAdapter[];
}
const engineStates = new WeakMap<SchemaEngine, EngineState>();

let loading: Promise<SchemaEngineModule> | undefined;

/**
 * Loads and instantiates the wasm module once per process.
 *
 * The package's main entry imports the `.wasm` file as an ES module, which Node 20 cannot do, so
 * this instantiates `schema_engine_bg.wasm` by hand and hands it to the JS glue module.
 */
export function loadSchemaEngine(): Promise<SchemaEngineModule> {
  loading ??= instantiate().catch((error: unknown) => {
    loading = undefined; // let a later call retry instead of caching the failure
    throw error;
  });
  return loading;
}

async function instantiate(): Promise<SchemaEngineModule> {
  installPanicRegistry();
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const glue: SchemaEngineModule = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(glue)) {
    if (name.startsWith('__wbg_setTimeout_')) imports[name] = trackedSetTimeout;
  }
  const { instance } = await wasmApi().instantiate(bytes, { './schema_engine_bg.js': imports });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
  return glue;
}

/**
 * The global `WebAssembly`, typed locally: @types/node 20 does not declare it, so its types
 * would otherwise depend on the DOM lib being in the emitted server's tsconfig.
 */
function wasmApi(): {
  instantiate(bytes: Uint8Array, imports: Record<string, Record<string, unknown>>): Promise<{ instance: { exports: object } }>;
} {
  return (globalThis as unknown as { WebAssembly: ReturnType<typeof wasmApi> }).WebAssembly;
}

/**
 * The engine arms timers for its timeouts (e.g. 10 s for PostgreSQL's migration advisory lock)
 * and never clears them — the glue has no clearTimeout — so a finished migration would keep the
 * process alive for those 10 s. Timers are tracked here and cleared once no engine is open.
 */
const pendingTimers = new Set<NodeJS.Timeout>();
let openEngines = 0;

function trackedSetTimeout(callback: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    pendingTimers.delete(timer);
    callback();
  }, ms >>> 0);
  pendingTimers.add(timer);
  return timer;
}

function clearTimersIfIdle(): void {
  if (openEngines > 0) return;
  for (const timer of pendingTimers) clearTimeout(timer);
  pendingTimers.clear();
}

/**
 * The wasm glue reports Rust panics through this global (the Prisma CLI installs the same one).
 * Without it a panic surfaces as "Cannot read properties of undefined (reading 'set_message')".
 */
function installPanicRegistry(): void {
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown };
  if (g.PRISMA_WASM_PANIC_REGISTRY !== undefined) return;
  let lastPanic = '';
  g.PRISMA_WASM_PANIC_REGISTRY = {
    get: (): string => lastPanic,
    set_message: (message: string): void => {
      lastPanic = `RuntimeError: ${message}`;
    },
  };
}

/**
 * Creates an engine for one schema and one database. `schemaText` may be undefined: applying
 * migrations needs no schema, the adapter tells the engine which database it talks to.
 *
 * The engine connects during construction (and on PostgreSQL runs a version query), so the
 * factory must be able to connect. Pass the adapter factory unwrapped: this binds it with
 * `bindMigrationAwareSqlAdapterFactory` (the engine needs Prisma's error-capturing wrapper) and
 * remembers every connection it opens so `closeSchemaEngine` can dispose them: `free()` alone
 * leaves them open, and on PostgreSQL one of them holds the engine's migration advisory lock.
 */
export async function openSchemaEngine(
  schemaText: string | undefined,
  adapterFactory: SqlDriverAdapterFactory | SqlMigrationAwareDriverAdapterFactory,
  options: OpenSchemaEngineOptions = {},
): Promise<SchemaEngine> {
  if (adapterFactory.provider !== 'sqlite' && adapterFactory.provider !== 'postgres') {
    throw new Error(
      `Prisma's WebAssembly schema engine does not support the "${adapterFactory.provider}" driver adapter ` +
        '(it supports sqlite and postgres only).',
    );
  }
  const glue = await loadSchemaEngine();
  const connections: SqlDriverAdapter[] = [];
  const track = async (connect: () => Promise<SqlDriverAdapter>): Promise<SqlDriverAdapter> => {
    const connection = await connect();
    connections.push(connection);
    if (connection.provider === 'postgres') runPostgresScriptsWhole(connection);
    return connection;
  };
  const tracking: SqlMigrationAwareDriverAdapterFactory = {
    provider: adapterFactory.provider,
    adapterName: adapterFactory.adapterName,
    connect: () => track(() => adapterFactory.connect()),
    connectToShadowDb: () =>
      track(() => {
        if ('connectToShadowDb' in adapterFactory) return adapterFactory.connectToShadowDb();
        throw new Error(`The ${adapterFactory.adapterName} adapter cannot open a shadow database.`);
      }),
  };
  const bound = bindMigrationAwareSqlAdapterFactory(tracking);
  const onLog = options.onLog;
  const logCallback = (line: string): void => {
    if (!onLog) return;
    try {
      onLog(JSON.parse(line) as EngineLogEntry);
    } catch {
      onLog({ fields: { message: line } });
    }
  };
  const datamodels: [string, string][] | undefined =
    schemaText === undefined ? undefined : [['schema.prisma', schemaText]];
  let engine: SchemaEngine;
  try {
    engine = await glue.SchemaEngine.new({ datamodels }, logCallback, bound);
  } catch (error) {
    await disposeAll(connections);
    clearTimersIfIdle();
    throw new Error(`Could not start the schema engine: ${describeEngineError(error, bound.errorRegistry)}`, {
      cause: error,
    });
  }
  engineStates.set(engine, { errorRegistry: bound.errorRegistry, connections });
  openEngines++;
  return engine;
}

/** Frees the engine's wasm memory and closes every database connection it opened. */
export async function closeSchemaEngine(engine: SchemaEngine): Promise<void> {
  const state = engineStates.get(engine);
  if (!state) return; // already closed
  engineStates.delete(engine);
  engine.free();
  openEngines--;
  clearTimersIfIdle();
  await disposeAll(state.connections);
}

async function disposeAll(connections: SqlDriverAdapter[]): Promise<void> {
  const open = connections.splice(0);
  await Promise.allSettled(open.map((c) => c.dispose()));
}

/**
 * Turns an error thrown by an engine call into readable text.
 *
 * Errors raised by the driver come back from the engine as "External error id#N"; the original is
 * kept in the adapter's error registry. Engine errors end with a Rust span trace ("   0: …"),
 * useful to Prisma developers only, which is cut off.
 */
export function engineErrorMessage(engine: SchemaEngine | undefined, error: unknown): string {
  const registry = engine ? engineStates.get(engine)?.errorRegistry : undefined;
  return describeEngineError(error, registry);
}

function describeEngineError(error: unknown, registry: ErrorRegistry | undefined): string {
  const raw = error instanceof Error ? error.message : String(error);
  const external = /External error id#(\d+)/.exec(raw);
  if (external && registry) {
    const record = registry.consumeError(Number(external[1]));
    if (record) return describeDriverError(record.error);
  }
  const withoutTrace = raw.split(/\n\s+0: /)[0] ?? raw;
  return withoutTrace.replace(/^external connector error\n/, '').trim();
}

/**
 * Driver adapter errors carry a structured `cause`: the database's own message for the
 * provider-specific kinds, or a kind such as `DatabaseNotReachable` with its details.
 */
function describeDriverError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (error.name !== 'DriverAdapterError' || typeof cause !== 'object' || cause === null) return error.message;
  const { kind, message, ...details } = cause as { kind?: unknown; message?: unknown };
  if (typeof message === 'string') return message;
  const detailText = Object.entries(details)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(', ');
  return detailText ? `${String(kind)} (${detailText})` : String(kind);
}
