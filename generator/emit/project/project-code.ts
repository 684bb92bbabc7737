/**
 * Where a Strapi project's own code goes in the server (load/project-code.ts read it): the
 * report `.contentgen/project-code.md`, one build warning per file, and what a first build
 * seeds into the user-owned `src/api/<name>.ts` (the core router's settings, and a list of the
 * project files to rewrite there).
 */
import type { ContentType, Schema } from '../../ir/types.js';
import type { CoreRouterSettings, ProjectCodeFile } from '../../load/project-code.js';
import { bannerText, withHeader } from '../../write/banner.js';
import { tsLiteral } from '../ts-literal.js';

export const projectCodeReportPath = '.contentgen/project-code.md';

const collectionActions = ['find', 'findOne', 'create', 'update', 'delete'];
const singleActions = ['find', 'update', 'delete'];

/** Where a file's content goes in the server, in a few words. */
export function destinationOf(file: ProjectCodeFile, ir: Schema): string {
  const api = apiFile(file.uid, ir);
  const name = file.file.split('/').pop()!.replace(/\.[^.]+$/, '');
  switch (file.role) {
    case 'controller':
      return api ? `\`controllers\` of ${api}` : 'a custom controller of a type not in the models: no place';
    case 'service':
      return api ? `\`services\` of ${api}` : 'a custom service of a type not in the models: no place';
    case 'router':
      return api ? `\`routes\` of ${api} (only/except and \`auth: false\` seeded there by the first build; policies and middlewares to rewrite)` : 'a router of a type not in the models';
    case 'routes':
      return api ? `\`routes.custom\` and their \`controllers\` of ${api}` : 'custom routes of no content type in the models: `routes.custom` of one of src/api/*.ts';
    case 'lifecycles':
      return api ? `\`lifecycles\` of ${api}` : 'lifecycles of a type not in the models';
    case 'policy':
      return `src/policies/${name}.ts (\`definePolicy\`)`;
    case 'middleware':
      return `src/middlewares/${name}.ts (\`defineMiddleware\`), named in \`middlewares\` of src/config.ts or a route's config`;
    case 'app':
      return '`register` / `bootstrap` of src/index.ts (`defineApp`)';
    case 'extension':
      return file.file.startsWith('src/extensions/graphql/') || /graphql/i.test(file.detail ?? '')
        ? 'src/extensions/graphql.ts'
        : 'no counterpart: a plugin extension; rewrite what it changes as src/index.ts, custom routes or policies';
    case 'plugin':
      return 'only the custom fields it registers are read (the types they store); its routes, content types and other code are not served';
    case 'admin':
      return 'nothing: there is no admin panel';
    case 'module':
      return 'a module of the project: bring it along with the code that uses it';
  }
}

const roleNames: Readonly<Record<ProjectCodeFile['role'], string>> = {
  controller: 'a customised controller',
  service: 'a customised service',
  router: 'core router settings',
  routes: 'custom routes',
  lifecycles: 'lifecycle hooks',
  policy: 'a policy',
  middleware: 'a middleware',
  app: 'register/bootstrap',
  extension: 'a plugin extension',
  plugin: 'a local plugin',
  admin: 'admin panel customisation',
  module: 'a module',
};

/** One warning per file that is not carried over (admin customisations are left out: nothing to do). */
export function projectCodeWarnings(ir: Schema): string[] {
  return (ir.projectCode?.files ?? [])
    .filter((f) => f.role !== 'admin')
    .map((f) => `${f.file}: ${roleNames[f.role]}${f.role === 'router' ? '' : ', not carried over'}: ${destinationOf(f, ir)} (${projectCodeReportPath})`);
}

/** `.contentgen/project-code.md`: every code file of the project and where it goes. */
export function projectCodeReport(ir: Schema): string | undefined {
  const code = ir.projectCode;
  if (!code) return undefined;
  const lines = [
    '# The Strapi project\'s own code',
    '',
    'Code under the project\'s `src/` is not translated: Strapi\'s `strapi.*` API has no one-to-one',
    'counterpart here. Each file that customises Strapi is listed with the user-owned file of this',
    'server that takes its place. A core router\'s `only`/`except` and `auth: false` settings are',
    'seeded into `src/api/<name>.ts` by the first build.',
    '',
    `${code.files.length} file(s) to look at; ${code.boilerplate} file(s) only call Strapi's factories (nothing to carry).`,
    '',
  ];
  if (code.files.length) {
    lines.push('| project file | what it is | where it goes here |', '|---|---|---|');
    for (const f of code.files) {
      const what = f.detail ? `${roleNames[f.role]}: ${f.detail}` : roleNames[f.role];
      lines.push(`| \`${f.file}\` | ${cell(what)} | ${cell(destinationOf(f, ir))} |`);
    }
  }
  return withHeader(projectCodeReportPath, `${lines.join('\n')}\n`, bannerText);
}

/**
 * What a first build writes as the second argument of `defineContentApi` in src/api/<name>.ts:
 * the core router's settings the server honours as they are (`except`, `auth: false`).
 */
export function seededApiSettings(ct: ContentType, ir: Schema): string {
  const router = ir.projectCode?.routers.get(ct.uid);
  const routes = router ? routeSettings(ct, router) : undefined;
  return routes ? tsLiteral({ routes }) : '{}';
}

/** Project files of this type, for the comment of the seeded src/api/<name>.ts. */
export function projectFilesOf(ct: ContentType, ir: Schema): { file: string; what: string }[] {
  return (ir.projectCode?.files ?? [])
    .filter((f) => f.uid === ct.uid)
    .map((f) => ({ file: f.file, what: f.detail ? `${roleNames[f.role]}: ${f.detail}` : roleNames[f.role] }));
}

function routeSettings(ct: ContentType, router: CoreRouterSettings): Record<string, unknown> | undefined {
  const actions = ct.kind === 'collectionType' ? collectionActions : singleActions;
  const excluded = new Set([...(router.except ?? []), ...(router.only ? actions.filter((a) => !router.only!.includes(a)) : [])]);
  const except = actions.filter((a) => excluded.has(a));
  const publicActions = (router.public ?? []).filter((a) => actions.includes(a) && !excluded.has(a));
  if (!except.length && !publicActions.length) return undefined;
  return {
    ...(publicActions.length ? { config: Object.fromEntries(publicActions.map((a) => [a, { auth: false }])) } : {}),
    ...(except.length ? { except } : {}),
  };
}

/**
 * The user-owned file of a uid's content type; for a file named after no content type (Strapi
 * registers `src/api/news-post/controllers/sitemap.js` as `api::news-post.sitemap`), the file of
 * its API folder's content type: the one named as the folder, or the folder's only one.
 */
function apiFile(uid: string | undefined, ir: Schema): string | undefined {
  if (!uid) return undefined;
  const own = ir.contentTypes.filter((c) => !c.plugin);
  const folder = /^api::([^.]+)\./.exec(uid)?.[1];
  const inFolder = own.filter((c) => c.uid.startsWith(`api::${folder}.`));
  const ct = own.find((c) => c.uid === uid) ?? inFolder.find((c) => c.uid === `api::${folder}.${folder}`) ?? (inFolder.length === 1 ? inFolder[0] : undefined);
  return ct ? `src/api/${ct.names.file}.ts` : undefined;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
