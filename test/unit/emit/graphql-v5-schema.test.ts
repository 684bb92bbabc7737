/**
 * schema.v5.graphql equals the schema Strapi 5.54.0 printed for the same models
 * (fixtures/strapi5-data/<set>/schema.graphql, recorded by test/v5/recorder): type by type,
 * and byte for byte (nothing in a printed schema is random). blog-v4compat is the schema of
 * Strapi's v4 compatibility mode.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, printType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { emitGraphqlV5, v5SchemaPath } from '../../../generator/emit/graphql-v5/graphql-v5.js';
import { registryOf } from '../../../generator/emit/graphql/graphql.js';
import { loadSchema } from '../../../generator/pipeline.js';
import { buildV5Schema, printV5Schema } from '../../../templates/runtime/graphql-v5/schema.js';
import { fixturesDir, modelsOf, tempDir, withModelFiles } from '../../helpers/paths.js';

const sets = [
  { set: 'blog', fixture: 'blog', v4CompatibilityMode: false },
  { set: 'blog-v4compat', fixture: 'blog', v4CompatibilityMode: true },
  { set: 'i18n', fixture: 'i18n', v4CompatibilityMode: false },
];

async function irOf(fixture: string) {
  const loaded = await loadSchema({ modelsDir: modelsOf(fixture), outDir: await tempDir(`v5-schema-${fixture}`), provider: 'sqlite' });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded));
  return loaded.ir;
}

const typeNames = (schema: GraphQLSchema) => Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__')).sort();

describe.each(sets)('schema.v5.graphql of $fixture = Strapi 5.54.0 ($set)', ({ set, fixture, v4CompatibilityMode }) => {
  const recorded = readFileSync(path.join(fixturesDir, 'strapi5-data', set, 'schema.graphql'), 'utf8');

  it('has the same types, each printed the same', async () => {
    const ours = buildV5Schema(registryOf(await irOf(fixture)), { v4CompatibilityMode });
    const theirs = buildSchema(recorded);
    expect(typeNames(ours)).toEqual(typeNames(theirs));
    for (const name of typeNames(theirs)) expect(printType(ours.getType(name)!), name).toBe(printType(theirs.getType(name)!));
  });

  it('prints byte for byte as Strapi did', async () => {
    const ours = buildV5Schema(registryOf(await irOf(fixture)), { v4CompatibilityMode });
    expect(printV5Schema(ours)).toBe(recorded.endsWith('\n') ? recorded : `${recorded}\n`);
  });
});

it('is emitted as schema.v5.graphql with a note, only when the project installs GraphQL', async () => {
  const ir = await irOf('blog');
  const file = emitGraphqlV5(ir).files().find((f) => f.path === v5SchemaPath);
  expect(file?.content).toContain('type ArticleEntityResponseCollection {\n  nodes: [Article!]!');
  expect(file?.content.startsWith('# The Strapi 5 GraphQL schema')).toBe(true);
  expect(emitGraphqlV5({ ...ir, plugins: { ...ir.plugins, graphql: false } }).files()).toEqual([]);
});

it('leaves the v5 schema out, saying why, when a model takes a name only Strapi 5 uses', async () => {
  const models = {
    'publication-status.json': { info: { singularName: 'publication-status', pluralName: 'publication-statuses', displayName: 'Publication status' }, attributes: { name: { type: 'string' } } },
  };
  await withModelFiles('v5-clash', models, async (dir) => {
    const loaded = await loadSchema({ modelsDir: dir, outDir: await tempDir('v5-clash-out'), provider: 'sqlite' });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded));
    const file = emitGraphqlV5(loaded.ir).files().find((f) => f.path === v5SchemaPath);
    expect(file?.content).toMatch(/^# No Strapi 5 GraphQL schema for these models: .*PublicationStatus/);
  });
});
