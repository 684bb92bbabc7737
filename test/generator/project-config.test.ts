/**
 * A Strapi project's config/ (issue 25): evaluated as Strapi does (.env, env() and its typed
 * forms, config/env/<NODE_ENV> over the base, CommonJS or TypeScript), seeded into the first
 * build's src/config.ts with environment reads kept and secrets left out, recorded in
 * .contentgen/project-config.json, and compared on later builds (warnings, src/config.ts
 * untouched). A config file that throws stops the build, naming it, with nothing written.
 * The project's plugins decide what is emitted (no GraphQL, no i18n here).
 */
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProjectConfig, parseDotEnv } from '../../generator/load/project-config.js';
import { generate } from '../../generator/pipeline.js';
import { runCli } from '../helpers/cli.js';
import { fixturesDir, tempDir } from '../helpers/paths.js';

const fixture = path.join(fixturesDir, 'projects/no-graphql');
let dir: string;
let project: string;
let out: string;

beforeEach(async () => {
  dir = await tempDir('project-config');
  project = path.join(dir, 'project');
  out = path.join(dir, 'out');
  await cp(fixture, project, { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const build = () => runCli('build', project, '-o', out);
const options = () => ({ modelsDir: project, outDir: out, provider: 'sqlite' as const, check: false, acceptDataLoss: false });

async function allFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('evaluating config/', () => {
  it('reads .env, env() helpers and the environment folder as Strapi does, recording env reads', () => {
    const development = loadProjectConfig(fixture, { environment: 'development', env: {} });
    expect(development.api).toEqual({ rest: { prefix: '/v1', defaultLimit: 2, maxLimit: 3, withCount: true } });
    expect(development.server).toMatchObject({ host: '0.0.0.0', port: 1337, app: { keys: ['toBeModified1', 'toBeModified2'] } });
    expect(development.sources['api:rest.defaultLimit']).toEqual({ name: 'API_DEFAULT_LIMIT', kind: 'int', default: 25 });
    expect(development.sources['plugins:users-permissions.config.jwt.expiresIn']).toEqual({ name: 'JWT_EXPIRES', kind: 'string', default: '30d' });
    expect(development.sources['middlewares:3.config.origin']).toEqual({ name: 'CORS_ORIGINS', kind: 'array', default: ['http://localhost:3000'] });
    expect(development.sources['api:rest.maxLimit']).toBeUndefined();
    // Other plugins' config is there for whoever serves them (strapi-plugin-transformer).
    expect(development.plugins.transformer).toEqual({ enabled: true, config: { responseTransforms: { removeAttributesKey: true, removeDataKey: true } } });

    const production = loadProjectConfig(fixture, { environment: 'production', env: { API_DEFAULT_LIMIT: '7' } });
    expect(production.api).toEqual({ rest: { prefix: '/v1', defaultLimit: 7, maxLimit: 50, withCount: true } });
    expect(production.files).toContain('config/env/production/api.js');
  });

  it('parses .env like dotenv', () => {
    expect(parseDotEnv('A=1\n# note\nexport B="two words" # c\nC=\'x#y\'\nD="l1\\nl2"\nE= spaced \n')).toEqual({ A: '1', B: 'two words', C: 'x#y', D: 'l1\nl2', E: 'spaced' });
  });

  it('evaluates a TypeScript config, and a derived value keeps the variables it came from', async () => {
    await rm(path.join(project, 'config/api.js'));
    await writeFile(
      path.join(project, 'config/api.ts'),
      "export default ({ env }: { env: any }) => ({ rest: { prefix: `/${env('API_ROOT', 'v2')}` as string, maxLimit: env.int('MAX', 9) * 2 } });\n",
    );
    const config = loadProjectConfig(project, { environment: 'development', env: {} });
    expect(config.api).toEqual({ rest: { prefix: '/v2', maxLimit: 18 } });
    expect(config.derived['api:rest.prefix']).toEqual(['API_ROOT']);
    expect(config.derived['api:rest.maxLimit']).toEqual(['MAX']);
  });

  it('runs the project\'s own TypeScript modules a config imports, and stands in for packages that are not installed', async () => {
    // As real projects do (config/server.ts: `import cronTasks from './cron'`, a cron folder in
    // TypeScript that imports a package; a plugin's cron helper): Strapi has them installed, a build need not.
    await mkdir(path.join(project, 'config/cron'), { recursive: true });
    await writeFile(path.join(project, 'config/cron/index.ts'), "import { parseString } from 'xml2js-not-installed';\nexport default { '0 * * * *': () => parseString('') };\n");
    await writeFile(
      path.join(project, 'config/server.js'),
      "const cronTasks = require('./cron').default;\nconst scheduler = require('@example/scheduler-not-installed/cron-task');\n" +
        "module.exports = ({ env }) => ({ host: env('HOST', '0.0.0.0'), port: env.int('PORT', 1337), cron: { enabled: true, tasks: { ...cronTasks, ...scheduler } }, label: `v${scheduler.version}` });\n",
    );
    const config = loadProjectConfig(project, { environment: 'development', env: {} });
    expect(config.server).toMatchObject({ host: '0.0.0.0', port: 1337, label: 'v' });
    expect(Object.keys((config.server.cron as { tasks: object }).tasks)).toEqual(['0 * * * *']);
    expect(config.unloaded).toEqual(['config/cron/index.ts → xml2js-not-installed', 'config/server.js → @example/scheduler-not-installed/cron-task']);
    const result = await build();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: config/server.js → @example/scheduler-not-installed/cron-task: cannot be loaded here');
  });

  it('gives a config `require.resolve`: a file Node finds, a project file, and for a workspace package that is not installed an empty stand-in (a Strapi 5 monorepo reads a theme file of its design system)', async () => {
    // notum-cz/strapi-next-monorepo-starter's shape (own code): config/plugins.ts imports a
    // helper that reads a CSS file of the monorepo's own package; Strapi starts with the
    // workspace installed, the build stopped on "require.resolve is not a function".
    await mkdir(path.join(project, 'config/plugins'), { recursive: true });
    await writeFile(path.join(project, 'config/theme.css'), 'p { color: red }\n');
    await writeFile(
      path.join(project, 'config/plugins/editor.ts'),
      "import { readFileSync } from 'node:fs';\nexport const editorConfig = () => ({ config: { css: readFileSync(require.resolve('@example/design-system-not-installed/theme.css'), 'utf8'), own: readFileSync(require.resolve('../theme.css'), 'utf8'), found: require.resolve('typescript').endsWith('.js') } });\n",
    );
    await writeFile(path.join(project, 'config/plugins.ts'), "import { editorConfig } from './plugins/editor';\nexport default () => ({ 'editor-not-installed': editorConfig() });\n");
    await rm(path.join(project, 'config/plugins.js'), { force: true });
    const config = loadProjectConfig(project, { environment: 'development', env: {} });
    expect(config.plugins['editor-not-installed']).toEqual({ config: { css: '', own: 'p { color: red }\n', found: true } });
    expect(config.unloaded).toEqual(['config/plugins/editor.ts → @example/design-system-not-installed/theme.css']);
    const result = await build();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: config/plugins/editor.ts → @example/design-system-not-installed/theme.css: cannot be loaded here');
  });
});

describe('building a project', () => {
  it('seeds src/config.ts with the project config, env reads kept, no secret in any file', async () => {
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    const config = await readFile(path.join(out, 'src/config.ts'), 'utf8');
    expect(config).toContain("import { env } from './runtime/env.js';");
    expect(config).toContain("prefix: '/v1',");
    expect(config).toContain("defaultLimit: env.int('API_DEFAULT_LIMIT', 25),");
    expect(config).toContain('maxLimit: 3,');
    expect(config).toContain("jwt: { expiresIn: env('JWT_EXPIRES', '30d') },");
    expect(config).toContain('ratelimit: { enabled: true, interval: 30000, max: 5 },');
    expect(config).toContain("origin: env.array('CORS_ORIGINS', ['http://localhost:3000']),");
    expect(config).not.toContain('graphql: {');
    // The cloudinary provider is named in a warning; its settings are not copied.
    expect(result.stderr).toContain('upload.config.provider "cloudinary" is not served by contentgen');
    expect(config).not.toContain('CLOUDINARY');
    for (const file of await allFiles(out)) {
      const text = await readFile(file, 'utf8');
      for (const secret of ['fixture-jwt-secret-not-for-files', 'tobemodified', 'toBeModified1']) expect(text, file).not.toContain(secret);
    }
    const record = JSON.parse(await readFile(path.join(out, '.contentgen/project-config.json'), 'utf8'));
    expect(record.values['config/api.js rest.maxLimit']).toBe(3);
    expect(record.values['config/api.js rest.defaultLimit']).toEqual({ env: 'API_DEFAULT_LIMIT', default: 25 });
  });

  it('emits no GraphQL and no i18n without their plugins, and keeps REST, the client and openapi.json', async () => {
    const result = await generate(options());
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.ir.plugins).toMatchObject({ graphql: false, i18n: false, documentation: false, transformer: false });
    expect(result.ir.projectConfig?.plugins.transformer).toBeDefined();
    const paths = result.files.files().map((f) => f.path);
    expect(paths).not.toContain('schema.graphql');
    expect(paths).not.toContain('src/extensions/graphql.ts');
    expect(paths).not.toContain('src/generated/graphql/types.ts');
    expect(paths).toContain('openapi.json');
    expect(paths.some((p) => p.startsWith('client/'))).toBe(true);
    expect(result.files.get('src/server.ts')!.content).toContain('plugins: [restV5Plugin()],');
    // pluginOptions.i18n is ignored: the type is not localized, there is no locale type.
    const note = result.ir.contentTypes.find((ct) => ct.uid === 'api::note.note')!;
    expect(note.localized).toBeUndefined();
    expect(note.attributes.map((a) => a.name)).not.toContain('locale');
    expect(result.ir.contentTypes.map((ct) => ct.uid)).not.toContain('plugin::i18n.locale');
    expect(result.files.get('openapi.json')!.content).not.toContain('/i18n/locales');
    // config/api.js's rest.prefix, written there, is the documented one.
    const documented = Object.keys(JSON.parse(result.files.get('openapi.json')!.content).paths);
    expect(documented).toContain('/v1/notes');
    expect(documented.filter((p) => p.startsWith('/api/'))).toEqual([]);
  });

  it('includes the S3 upload provider and the AWS SDK only when the project uses it: installs @strapi/provider-upload-aws-s3, selects aws-s3 in config/plugins.js, or the server\'s src/config.ts selects it', async () => {
    const s3Files = (result: Awaited<ReturnType<typeof generate>>) => {
      if (!result.ok) throw new Error(JSON.stringify(result));
      const pkg = JSON.parse(result.files.get('package.json')!.content) as { dependencies: Record<string, string> };
      return {
        plugin: result.ir.plugins.uploadAwsS3,
        sdk: Object.keys(pkg.dependencies).filter((name) => name.startsWith('@aws-sdk/')),
        module: result.files.get('src/runtime/upload/provider-s3.ts') !== undefined,
        imported: result.files.get('src/server.ts')!.content.includes("import './runtime/upload/provider-s3.js';"),
        docs: result.files.get('docs/rest.md')!.content.includes('built with the S3 provider'),
      };
    };
    const without = { plugin: false, sdk: [], module: false, imported: false, docs: false };
    const withS3 = { plugin: true, sdk: ['@aws-sdk/client-s3'], module: true, imported: true, docs: true };
    // The fixture installs strapi-provider-upload-cloudinary (not served): no S3.
    expect(s3Files(await generate(options()))).toEqual(without);
    const models = { ...options(), modelsDir: path.join(fixturesDir, 'blog/models') };
    expect(s3Files(await generate(models))).toEqual(without);

    // A models folder: the server's own src/config.ts selects it (a comment naming it does not).
    await mkdir(path.join(out, 'src'), { recursive: true });
    const userConfig = (upload: string) => `import type { UserConfig } from './runtime/config.js';\n// provider: 'aws-s3' is commented out here\nexport default { plugins: { upload: ${upload} } } satisfies UserConfig;\n`;
    await writeFile(path.join(out, 'src/config.ts'), userConfig('{}'));
    expect(s3Files(await generate(models))).toEqual(without);
    await writeFile(path.join(out, 'src/config.ts'), userConfig("{ config: { provider: 'aws-s3', providerOptions: { s3Options: { params: { Bucket: process.env.AWS_BUCKET } } } } }"));
    expect(s3Files(await generate(models))).toEqual(withS3);
    await rm(path.join(out, 'src/config.ts'));

    // A Strapi project: the provider's package installed (its config here still says local) …
    const pkg = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8'));
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ ...pkg, dependencies: { ...pkg.dependencies, '@strapi/provider-upload-aws-s3': '4.26.2' } }));
    expect(s3Files(await generate(options()))).toEqual(withS3);
    await writeFile(path.join(project, 'package.json'), JSON.stringify(pkg));
    // … or config/plugins.js selecting it.
    await writeFile(path.join(project, 'config/plugins.js'), "module.exports = ({ env }) => ({ upload: { config: { provider: 'aws-s3', providerOptions: { s3Options: { region: env('AWS_REGION'), params: { Bucket: env('AWS_BUCKET') } } } } } });\n");
    expect(s3Files(await generate(options()))).toEqual(withS3);
  });

  it('turns an installed plugin off when config/plugins.js says enabled: false', async () => {
    const pkg = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8'));
    pkg.dependencies['@strapi/plugin-graphql'] = '4.26.2';
    pkg.dependencies['@strapi/plugin-i18n'] = '4.26.2';
    await writeFile(path.join(project, 'package.json'), JSON.stringify(pkg));
    const on = await generate(options());
    if (!on.ok) throw new Error(JSON.stringify(on));
    expect(on.ir.plugins).toMatchObject({ graphql: true, i18n: true });
    expect(on.files.get('src/server.ts')!.content).toContain('graphqlPlugin({ register: registerGraphql })');
    expect(on.ir.contentTypes.find((ct) => ct.uid === 'api::note.note')!.localized).toBe(true);
    await writeFile(path.join(project, 'config/env/production/plugins.js'), 'module.exports = { graphql: { enabled: false } };\n');
    const off = await generate(options());
    if (!off.ok) throw new Error(JSON.stringify(off));
    expect(off.ir.plugins.graphql).toBe(process.env.NODE_ENV === 'production' ? false : true);
    await writeFile(path.join(project, 'config/plugins.js'), `${await readFile(path.join(project, 'config/plugins.js'), 'utf8')}\nmodule.exports = ((base) => (a) => ({ ...base(a), graphql: { enabled: false } }))(module.exports);\n`);
    const disabled = await generate(options());
    if (!disabled.ok) throw new Error(JSON.stringify(disabled));
    expect(disabled.ir.plugins.graphql).toBe(false);
  });

  it('a Strapi 5 project has i18n without @strapi/plugin-i18n (it is in Strapi 5\'s core)', async () => {
    const pkg = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8'));
    delete pkg.dependencies['@strapi/plugin-i18n'];
    pkg.dependencies['@strapi/strapi'] = '4.26.2';
    await writeFile(path.join(project, 'package.json'), JSON.stringify(pkg));
    const v4 = await generate(options());
    if (!v4.ok) throw new Error(JSON.stringify(v4));
    expect(v4.ir.plugins.i18n).toBe(false);
    expect(v4.ir.contentTypes.find((ct) => ct.uid === 'api::note.note')!.localized).toBeFalsy();
    pkg.dependencies['@strapi/strapi'] = '^5.8.0';
    await writeFile(path.join(project, 'package.json'), JSON.stringify(pkg));
    const v5 = await generate(options());
    if (!v5.ok) throw new Error(JSON.stringify(v5));
    expect(v5.ir.plugins.i18n).toBe(true);
    expect(v5.ir.contentTypes.find((ct) => ct.uid === 'api::note.note')!.localized).toBe(true);
    await writeFile(path.join(project, 'config/plugins.js'), `${await readFile(path.join(project, 'config/plugins.js'), 'utf8')}\nmodule.exports = ((base) => (a) => ({ ...base(a), i18n: { enabled: false } }))(module.exports);\n`);
    const off = await generate(options());
    if (!off.ok) throw new Error(JSON.stringify(off));
    expect(off.ir.plugins.i18n).toBe(false);
  });

  it('later builds warn about config changes and leave src/config.ts alone', async () => {
    expect((await build()).code).toBe(0);
    const seeded = await readFile(path.join(out, 'src/config.ts'), 'utf8');
    const again = await build();
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('changed');
    await writeFile(path.join(project, 'config/api.js'), (await readFile(path.join(project, 'config/api.js'), 'utf8')).replace('maxLimit: 3', 'maxLimit: 200').replace("env.int('API_DEFAULT_LIMIT', 25)", "env.int('PAGE_SIZE', 10)"));
    const changed = await build();
    expect(changed.code).toBe(0);
    expect(changed.stderr).toContain('config/api.js rest.maxLimit changed 3 → 200: src/config.ts is yours, not changed');
    expect(changed.stderr).toContain('config/api.js rest.defaultLimit changed env("API_DEFAULT_LIMIT", 25) → env("PAGE_SIZE", 10): src/config.ts is yours, not changed');
    expect(await readFile(path.join(out, 'src/config.ts'), 'utf8')).toBe(seeded);
  });

  it('never writes a secret: literal secrets are left out, secret env reads lose their default', async () => {
    await writeFile(
      path.join(project, 'config/plugins.js'),
      `module.exports = ({ env }) => ({
  'users-permissions': { config: { jwtSecret: 'literal-jwt-secret', jwt: { expiresIn: '1h' } } },
  upload: {
    config: {
      provider: 'aws-s3',
      providerOptions: {
        s3Options: {
          credentials: { accessKeyId: 'AKIALITERALKEY', secretAccessKey: env('AWS_ACCESS_SECRET', 'default-aws-secret') },
          region: env('AWS_REGION', 'eu-west-1'),
          params: { Bucket: env('AWS_BUCKET') },
        },
      },
    },
  },
});
`,
    );
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    const config = await readFile(path.join(out, 'src/config.ts'), 'utf8');
    expect(config).toContain("provider: 'aws-s3'");
    expect(config).toContain("secretAccessKey: env('AWS_ACCESS_SECRET')");
    expect(config).toContain("region: env('AWS_REGION', 'eu-west-1')");
    expect(config).toContain("jwt: { expiresIn: '1h' }");
    expect(result.stderr).toContain('s3Options.credentials.accessKeyId is a secret written in the file: not copied');
    expect(result.stderr).toContain('users-permissions.config.jwtSecret: the server reads its JWT secret from JWT_SECRET');
    for (const file of await allFiles(out)) {
      const text = await readFile(file, 'utf8');
      for (const secret of ['literal-jwt-secret', 'AKIALITERALKEY', 'default-aws-secret']) expect(text, file).not.toContain(secret);
    }
  });

  it('seeds an aws-s3 upload config written the pre-4.15 way (keys beside s3Options) in the layout the server reads, as Strapi\'s provider moves it', async () => {
    await writeFile(
      path.join(project, 'config/plugins.js'),
      "module.exports = ({ env }) => ({ upload: { config: { provider: 'aws-s3', providerOptions: { accessKeyId: env('AWS_ACCESS_KEY_ID'), secretAccessKey: env('AWS_ACCESS_SECRET'), region: env('AWS_REGION'), params: { Bucket: env('AWS_BUCKET') } } } } });\n",
    );
    expect((await build()).code).toBe(0);
    const config = await readFile(path.join(out, 'src/config.ts'), 'utf8');
    expect(config).toContain("s3Options: {\n          region: env('AWS_REGION'),\n          params: { Bucket: env('AWS_BUCKET') },\n          credentials: { accessKeyId: env('AWS_ACCESS_KEY_ID'), secretAccessKey: env('AWS_ACCESS_SECRET') },\n        },");
    expect(config).not.toMatch(/providerOptions: \{\s+accessKeyId/);
    // The keys inside s3Options rather than its credentials (also taken by Strapi's provider).
    await writeFile(
      path.join(project, 'config/plugins.js'),
      "module.exports = ({ env }) => ({ upload: { config: { provider: 'aws-s3', providerOptions: { s3Options: { accessKeyId: env('AWS_ACCESS_KEY_ID'), secretAccessKey: env('AWS_ACCESS_SECRET'), region: env('AWS_REGION'), params: { Bucket: env('AWS_BUCKET') } } } } } });\n",
    );
    await rm(out, { recursive: true, force: true });
    expect((await build()).code).toBe(0);
    expect(await readFile(path.join(out, 'src/config.ts'), 'utf8')).toContain("credentials: { accessKeyId: env('AWS_ACCESS_KEY_ID'), secretAccessKey: env('AWS_ACCESS_SECRET') },");
  });

  it('seeds the local provider with only its own providerOptions (another provider\'s, kept by Strapi\'s merge of config/env/development, are left out: dev-launchers/strapiv4), upload keys the server reads, and numbers read with env() as env.int', async () => {
    // What Strapi's merge of config/env/development/plugins.js (provider 'local', localServer) into
    // config/plugins.js (provider strapi-provider-cloudflare-r2 and its options) gives.
    await writeFile(
      path.join(project, 'config/plugins.js'),
      "module.exports = ({ env }) => ({ upload: { config: { provider: 'local', providerOptions: { accessKeyId: env('CF_KEY'), params: { Bucket: env('CF_BUCKET') }, pool: false, sizeLimit: 1000, localServer: { maxage: 300000 } }, actionOptions: { upload: {} }, formidable: { maxFileSize: 1000 } } } });\n",
    );
    // pg_strapi4 and shop-strapi: a key of upload.config Strapi ignores; a number read with env().
    await writeFile(path.join(project, 'config/api.js'), "module.exports = ({ env }) => ({ rest: { defaultLimit: 30, maxLimit: env('DEFAULT_REST_MAX_LIMIT', 100) } });\n");
    const result = await build();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('config/plugins.js upload.config.providerOptions.accessKeyId is not an option of the local provider (sizeLimit, localServer)');
    const config = await readFile(path.join(out, 'src/config.ts'), 'utf8');
    expect(config).toContain("provider: 'local'");
    expect(config).toContain('localServer: { maxage: 300000 }');
    expect(config).not.toContain('CF_KEY');
    expect(config).not.toContain('pool');
    expect(result.stderr).toContain('config/plugins.js upload.config.formidable is not read by contentgen');
    expect(config).not.toContain('formidable');
    expect(config).toContain("maxLimit: env.int('DEFAULT_REST_MAX_LIMIT', 100),");
  });

  it('a config file that throws stops the build, naming the file; nothing is written', async () => {
    await writeFile(path.join(project, 'config/middlewares.js'), "module.exports = ({ env }) => { throw new Error('CORS_ORIGINS missing'); };\n");
    const result = await build();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('config/middlewares.js');
    expect(result.stderr).toContain('CORS_ORIGINS missing');
    expect(await allFiles(out)).toEqual([]);
    await mkdir(out, { recursive: true });
  });
});
