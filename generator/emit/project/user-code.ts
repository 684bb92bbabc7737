/**
 * The user's side of out/: the files created once for them (src/index.ts, one src/api/<name>.ts
 * per content type) and the generated list of every user file the server runs
 * (src/generated/user-code.ts), from what the build found in the output folder.
 */
import { camelCase } from '../../ir/names.js';
import type { Schema } from '../../ir/types.js';
import type { UserCodeInputs } from '../../load/load-user-code.js';
import { FileMap } from '../file-map.js';
import { projectFilesOf, seededApiSettings } from './project-code.js';
import { render } from '../templates.js';

export function emitUserCode(ir: Schema, found: UserCodeInputs): FileMap {
  const files = new FileMap();
  const types = ir.contentTypes.filter((ct) => !ct.plugin);
  for (const ct of types) {
    const collection = ct.kind === 'collectionType';
    files.add(
      `src/api/${ct.names.file}.ts`,
      render('user/api.ts.hbs', {
        displayName: ct.displayName,
        uid: ct.uid,
        apiName: ct.uid.slice('api::'.length, ct.uid.indexOf('.')),
        pascal: ct.names.pascal,
        file: ct.names.file,
        routePath: `/${ct.names.route}`,
        findAction: 'find',
        serviceFind: collection ? 'find' : 'findSingle',
        settings: seededApiSettings(ct, ir),
        projectFiles: projectFilesOf(ct, ir),
      }),
      'user',
    );
  }
  files.add('src/index.ts', render('user/index.ts.hbs', { exampleUid: types[0]?.uid ?? 'api::article.article' }), 'user');

  const apis = types.map((ct) => ({ ident: `${ct.names.camel}Api`, file: ct.names.file }));
  const taken = new Set(['app', ...apis.map((a) => a.ident)]);
  const named = (suffix: string, names: readonly string[]) => names.map((file) => ({ ident: uniqueIdent(`${camelCase(file.replace(/[^A-Za-z0-9]+/g, ' ').trim() || 'file')}${suffix}`, taken), file }));
  const policies = named('Policy', found.policies);
  const middlewares = named('Middleware', found.middlewares);
  const map = (list: { ident: string; file: string }[]) => (list.length ? `{ ${list.map((e) => `'${e.file}': ${e.ident}`).join(', ')} }` : '{}');
  files.add(
    'src/generated/user-code.ts',
    render('project/user-code.ts.hbs', {
      apis,
      policies,
      middlewares,
      apiList: `[${apis.map((a) => a.ident).join(', ')}]`,
      policyMap: map(policies),
      middlewareMap: map(middlewares),
    }),
  );
  return files;
}

/** src/api files whose content type is gone: kept (they are the user's), no longer served. */
export function orphanApiFiles(ir: Schema, found: UserCodeInputs): string[] {
  const current = new Set(ir.contentTypes.filter((ct) => !ct.plugin).map((ct) => ct.names.file));
  return found.apiFiles.filter((file) => !current.has(file)).map((file) => `src/api/${file}.ts`);
}

/** `ident`, or `ident2`, `ident3`… when taken; a leading digit gets an underscore. */
function uniqueIdent(ident: string, taken: Set<string>): string {
  const base = /^[0-9]/.test(ident) ? `_${ident}` : ident;
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n}`;
  taken.add(candidate);
  return candidate;
}
