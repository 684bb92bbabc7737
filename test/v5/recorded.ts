/**
 * Replaying a Strapi 5.54.0 recording (fixtures/strapi5-data/<set>) against a generated server of
 * the same models: the recorder's script (test/v5/recorder) runs again, unchanged, and the
 * answers are compared with the recorded ones, documentIds, times and row ids normalised
 * (recorder/normalise.ts). Used by rest-recorded.test.ts (REST answers, v5 on `/api`) and
 * graphql-recorded.test.ts (GraphQL answers, v5 on `/graphql` too).
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { StrapiClient, type Auth } from '../import/recorder/client.js';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { fixturesDir, modelsOf, tempDir } from '../helpers/paths.js';
import { buildModels, createApiToken, startServer, writeUserConfig, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { alignDocumentIds } from './align.js';
import { normaliseRecording } from './recorder/normalise.js';
import { extraPermissions } from './recorder/permissions.js';

export type RecordedSet = 'blog' | 'i18n';

export interface Replay {
  /** The recording's requests, in order. */
  readonly recorded: RecordedRequest[];
  /** The same requests as this server answered them. */
  readonly replayed: RecordedRequest[];
}

/**
 * Builds the set's models with the permissions the recording's Strapi granted beyond them,
 * serves them with `userConfig` (src/config.ts), runs `script` with a full-access token and
 * answers both sides. Stops and removes everything afterwards.
 */
export async function replayRecording(set: RecordedSet, label: string, userConfig: Record<string, unknown>, script: (client: StrapiClient, full: Auth) => Promise<void>): Promise<Replay> {
  const modelsDir = await tempDir(`${label}-${set}-models`);
  let built: BuiltServer | undefined;
  let server: RunningServer | undefined;
  try {
    await cp(modelsOf(set), modelsDir, { recursive: true });
    const permissionsFile = path.join(modelsDir, 'permissions.json');
    const permissions = JSON.parse(await readFile(permissionsFile, 'utf8')) as Record<string, string[]>;
    for (const [role, actions] of Object.entries(extraPermissions[set])) permissions[role] = [...new Set([...(permissions[role] ?? []), ...actions])];
    await writeFile(permissionsFile, JSON.stringify(permissions, null, 2));
    built = await buildModels(modelsDir, `${label}-${set}`);
    await writeUserConfig(built.dir, userConfig);
    server = await startServer(built.dir);
    const client = new StrapiClient(server.url);
    const token = await createApiToken(built.dir, { type: 'full-access' });
    await script(client, { kind: 'token', name: 'full-access', key: token });
    // Strapi 5 copies a published document through a JS number: its answers lose the biginteger's
    // last digit (fixtures/strapi5-data/README.md); this server keeps the value it was given.
    const replayed = JSON.parse(JSON.stringify(client.answers).replaceAll('"9007199254740993"', '"9007199254740992"')) as RecordedRequest[];
    const recorded = (JSON.parse(await readFile(path.join(fixturesDir, `strapi5-data/${set}/answers.json`), 'utf8')) as { requests: RecordedRequest[] }).requests;
    return { recorded, replayed };
  } finally {
    await server?.stop();
    await built?.cleanup();
    await rm(modelsDir, { recursive: true, force: true });
  }
}

/** GraphQL's string ids (`"18"`: components, users in `me`) normalised like numeric ones. */
function withStringIds(value: unknown, key?: string): unknown {
  if (key === 'id' && typeof value === 'string' && /^\d+$/.test(value)) return '<id>';
  if (Array.isArray(value)) return value.map((item) => withStringIds(item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withStringIds(v, k)]));
  return value;
}

/** The recorded requests `compared` picks whose answers differ after normalising, with the first difference. */
export function differences(replay: Replay, compared: (request: RecordedRequest) => boolean): Map<string, string> {
  const { recorded, replayed } = replay;
  // One normalising over both, so a documentId has one label on both sides.
  const both = normaliseRecording([...recorded, ...alignDocumentIds(recorded, replayed)], { ids: true }).map((request) => withStringIds(request) as RecordedRequest);
  const a = both.slice(0, recorded.length);
  const b = new Map(both.slice(recorded.length).map((r) => [r.name, r]));
  const out = new Map<string, string>();
  for (const request of a) {
    if (!compared(request)) continue;
    const other = b.get(request.name);
    const expected = { status: request.status, answer: request.answer };
    const actual = other ? { status: other.status, answer: other.answer } : undefined;
    if (!isDeepStrictEqual(expected, actual)) out.set(request.name, firstDifference(expected, actual, ''));
  }
  return out;
}

function firstDifference(a: unknown, b: unknown, at: string): string {
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!isDeepStrictEqual((a as any)[key], (b as any)[key])) return firstDifference((a as any)[key], (b as any)[key], `${at}.${key}`);
    }
  }
  return `${at}: Strapi ${JSON.stringify(a)?.slice(0, 200)} ≠ ours ${JSON.stringify(b)?.slice(0, 200)}`;
}

/**
 * What a replay test asserts: every difference is a known one, and every known one still
 * differs (a request that starts matching must be taken off the list). `report`: a file to
 * write every difference to (`<report>.<set>`).
 */
export async function unexpected(found: Map<string, string>, knownDifferences: Record<string, string>, report?: string): Promise<{ unexpected: string[]; nowMatching: string[] }> {
  if (report) await writeFile(report, [...found].map(([name, diff]) => `${name}\t${diff}`).join('\n') + '\n');
  return {
    unexpected: [...found].filter(([name]) => !(name in knownDifferences)).map(([name, diff]) => `${name} ${diff}`),
    nowMatching: Object.keys(knownDifferences).filter((name) => !found.has(name)),
  };
}
