/**
 * The REST API's documentation, as Strapi's documentation plugin serves it: the OpenAPI
 * document the build wrote (`openapi.json`) at `/documentation/openapi.json`, and Swagger UI
 * at `/documentation` to read and try it. Outside production, or with
 * `plugins.documentation.servedInProduction`.
 *
 * Swagger UI's files come from the server's own node_modules (`swagger-ui-dist`, a
 * development dependency like GraphiQL): no CDN, no inline script, a strict
 * Content-Security-Policy. A production install without it still serves the document.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import type { ServerPlugin } from '../plugin.js';
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
      return { middleware: documentation({ path: at, root }) };
    },
  };
}

export interface DocumentationOptions {
  /** `/documentation` */
  readonly path: string;
  /** The server's root folder, which holds openapi.json. */
  readonly root: string;
}

interface Asset {
  readonly body: string | Buffer;
  readonly type: string;
}

const swaggerFiles: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/** Starts Swagger UI on `#swagger-ui` with the document its attribute names. */
const startScript = `(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({ url: root.getAttribute('data-url'), domNode: root, deepLinking: true, persistAuthorization: true });
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
      ctx.body = page(base, available);
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

function page(base: string, available: boolean): string {
  const body = available
    ? `<div id="swagger-ui" data-url="${escapeHtml(`${base}/openapi.json`)}"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/start.js"></script>`
    : `<p>Swagger UI is not installed with this server (it is a development dependency: <code>npm install</code> without <code>--omit=dev</code> installs it). The document itself is at <a href="${base}/openapi.json">${base}/openapi.json</a>.</p>`;
  return htmlPage('API documentation', [`${base}/swagger-ui.css`], body);
}
