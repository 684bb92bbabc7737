/**
 * The REST API's documentation, as Strapi's documentation plugin serves it: the OpenAPI
 * document the build wrote (`openapi.json`) at `/documentation/openapi.json`, and Swagger UI
 * at `/documentation` to read and try it. Outside production, or with
 * `plugins.documentation.servedInProduction`. With the v5 mount on, its own document
 * (`openapi.v5.json`, under the mount of src/config.ts) too, the two in Swagger UI's
 * definition selector: the v4 one first, or the v5 one when v5 has v4's prefix.
 *
 * Swagger UI's files come from the server's own node_modules (`swagger-ui-dist`, a
 * development dependency like GraphiQL): no CDN, no inline script, a strict
 * Content-Security-Policy. A production install without it still serves the document.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import type { ServerPlugin } from '../plugin.js';
import { defaultV5RestPrefix } from '../config.js';
import { escapeHtml, htmlPage, packagesInstalled, pageSecurityPolicy, readPackageFile } from './browser-page.js';

/**
 * Strapi's documentation plugin (`@strapi/plugin-documentation`), registered by src/server.ts
 * when the project installs it: the page and the document, outside production or with
 * `plugins.documentation.servedInProduction`.
 */
export function documentationPlugin(): ServerPlugin {
  return {
    name: 'documentation',
    mount({ config, root, environment }) {
      const { path: at, servedInProduction } = config.plugins.documentation;
      if (!root || (environment === 'production' && !servedInProduction)) return {};
      const v5 = config.v5.rest;
      return { middleware: documentation({ path: at, root, v4Prefix: config.api.rest.prefix, ...(v5.enabled ? { v5Prefix: v5.prefix } : {}) }) };
    },
  };
}

export interface DocumentationOptions {
  /** `/documentation` */
  readonly path: string;
  /** The server's root folder, which holds openapi.json and openapi.v5.json. */
  readonly root: string;
  /** Where v4 is mounted (`api.rest.prefix`): the name of its definition. */
  readonly v4Prefix?: string;
  /** Where the v5 dialect is mounted (`v5.rest.prefix`); absent when it is off (no openapi.v5.json). */
  readonly v5Prefix?: string;
}

export const openapiV5File = 'openapi.v5.json';

/**
 * openapi.v5.json's paths moved from the mount the build wrote them under (`/v5/api`) to the
 * one this server serves.
 */
export function mountedAt(document: { paths?: Record<string, unknown> }, prefix: string): unknown {
  if (prefix === defaultV5RestPrefix || !document.paths) return document;
  const paths = Object.entries(document.paths).map(([key, item]) => [key.startsWith(`${defaultV5RestPrefix}/`) ? `${prefix}${key.slice(defaultV5RestPrefix.length)}` : key, item]);
  return { ...document, paths: Object.fromEntries(paths) };
}

interface Asset {
  readonly body: string | Buffer;
  readonly type: string;
}

const swaggerFiles: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
};

/**
 * Starts Swagger UI on `#swagger-ui` with the documents its attributes name: one, or several
 * in the top bar's definition selector (the standalone layout), `data-primary` first.
 */
const startScript = `(function () {
  var root = document.getElementById('swagger-ui');
  var urls = JSON.parse(root.getAttribute('data-urls'));
  var options = { domNode: root, deepLinking: true, persistAuthorization: true };
  if (urls.length === 1) options.url = urls[0].url;
  else {
    options.urls = urls;
    options['urls.primaryName'] = root.getAttribute('data-primary');
    options.presets = [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset];
    options.layout = 'StandaloneLayout';
  }
  window.ui = SwaggerUIBundle(options);
})();
`;

export function documentation(options: DocumentationOptions) {
  const base = options.path;
  const assets = new Map<string, Promise<Asset | undefined>>();
  const load = async (name: string): Promise<Asset | undefined> => {
    if (name === 'openapi.json') {
      const body = await readFile(path.join(options.root, 'openapi.json')).catch(() => undefined);
      return body ? { body, type: 'application/json; charset=utf-8' } : undefined;
    }
    if (name === openapiV5File && options.v5Prefix !== undefined) {
      const body = await readFile(path.join(options.root, openapiV5File), 'utf8').catch(() => undefined);
      return body ? { body: `${JSON.stringify(mountedAt(JSON.parse(body), options.v5Prefix), null, 2)}\n`, type: 'application/json; charset=utf-8' } : undefined;
    }
    if (name === 'start.js') return { body: startScript, type: 'application/javascript; charset=utf-8' };
    const type = Object.hasOwn(swaggerFiles, name) ? swaggerFiles[name] : undefined;
    const body = type ? await readPackageFile('swagger-ui-dist', name) : undefined;
    return body && type ? { body, type } : undefined;
  };
  const asset = (name: string) => {
    let found = assets.get(name);
    if (!found) assets.set(name, (found = load(name)));
    return found;
  };

  return async function documentationPage(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === base) {
      const available = packagesInstalled('swagger-ui-dist');
      ctx.set('Content-Security-Policy', pageSecurityPolicy);
      ctx.type = 'text/html';
      ctx.body = page(base, available, definitions(options));
      return;
    }
    if (!ctx.path.startsWith(`${base}/`)) return next();
    const found = await asset(ctx.path.slice(base.length + 1));
    if (!found) return next();
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = found.type;
    ctx.body = found.body;
  };
}

interface Definition {
  readonly name: string;
  readonly url: string;
}

/** The documents of the definition selector; the primary one first. */
function definitions(options: DocumentationOptions): Definition[] {
  const v4: Definition = { name: `v4 (${options.v4Prefix ?? '/api'})`, url: `${options.path}/openapi.json` };
  if (options.v5Prefix === undefined || !existsSync(path.join(options.root, openapiV5File))) return [v4];
  const v5: Definition = { name: `Strapi 5 (${options.v5Prefix})`, url: `${options.path}/${openapiV5File}` };
  return options.v5Prefix === (options.v4Prefix ?? '/api') ? [v5, v4] : [v4, v5];
}

function page(base: string, available: boolean, documents: readonly Definition[]): string {
  const body = available
    ? `<div id="swagger-ui" data-urls="${escapeHtml(JSON.stringify(documents))}" data-primary="${escapeHtml(documents[0]!.name)}"></div>
<script src="${base}/swagger-ui-bundle.js"></script>${documents.length > 1 ? `\n<script src="${base}/swagger-ui-standalone-preset.js"></script>` : ''}
<script src="${base}/start.js"></script>`
    : `<p>Swagger UI is not installed with this server (it is a development dependency: <code>npm install</code> without <code>--omit=dev</code> installs it). The documents themselves: ${documents.map((d) => `<a href="${escapeHtml(d.url)}">${escapeHtml(d.url)}</a> (${escapeHtml(d.name)})`).join(', ')}.</p>`;
  return htmlPage('API documentation', [`${base}/swagger-ui.css`], body);
}
