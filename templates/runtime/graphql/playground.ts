/**
 * The GraphQL playground served at the endpoint (GET, `Accept: text/html`) outside
 * production: GraphiQL — the GraphQL Foundation's IDE, with highlighting, autocomplete,
 * validation as you type, the documentation explorer, history and a headers editor (e.g.
 * `Authorization: Bearer <token>`).
 *
 * Everything comes from the server itself, so the page works offline and under a strict
 * Content-Security-Policy: GraphiQL's and React's browser builds are read from the server's
 * own node_modules (`graphiql`, `react`, `react-dom`: development dependencies, as a
 * production install has no playground) and served under `<endpoint>/playground/`, with the
 * small script that starts GraphiQL. No inline script; the page's data is in attributes.
 */
import { escapeHtml, htmlPage, packagesInstalled, pageSecurityPolicy, readPackageFile } from '../http/browser-page.js';

export interface PlaygroundPage {
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

export interface PlaygroundAsset {
  readonly body: string | Buffer;
  readonly type: string;
}

/** The path under the endpoint where the page's files are served. */
export const assetsSegment = 'playground';

/**
 * File name → the package and the file in it, and its Content-Type. Found from the package's
 * package.json: React's `exports` do not list its browser builds.
 */
const packageFiles: Readonly<Record<string, { readonly pkg: string; readonly file: string; readonly type: string }>> = {
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
  'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'application/javascript; charset=utf-8' },
  'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'application/javascript; charset=utf-8' },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'application/javascript; charset=utf-8' },
};

/** Starts GraphiQL on `#graphiql` with the endpoint and first query its attributes hold. */
const startScript = `(function () {
  var root = document.getElementById('graphiql');
  var fetcher = GraphiQL.createFetcher({ url: root.getAttribute('data-endpoint') });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: root.getAttribute('data-default-query'),
      isHeadersEditorEnabled: true,
      defaultEditorToolsVisibility: true,
    }),
  );
})();
`;

/**
 * The page's files, read once on first use. Undefined when GraphiQL is not installed (a
 * production install, `npm install --omit=dev`): the endpoint then says how to get it.
 */
export class PlaygroundAssets {
  readonly #files = new Map<string, Promise<PlaygroundAsset | undefined>>();

  /** Whether GraphiQL's files can be served. */
  available(): boolean {
    return packagesInstalled('graphiql', 'react', 'react-dom');
  }

  get(name: string): Promise<PlaygroundAsset | undefined> {
    let file = this.#files.get(name);
    if (!file) {
      file = this.load(name);
      this.#files.set(name, file);
    }
    return file;
  }

  private async load(name: string): Promise<PlaygroundAsset | undefined> {
    if (name === 'start.js') return { body: startScript, type: 'application/javascript; charset=utf-8' };
    if (name === 'page.css') return { body: pageStyle, type: 'text/css; charset=utf-8' };
    const source = Object.hasOwn(packageFiles, name) ? packageFiles[name] : undefined;
    if (!source) return undefined;
    const body = await readPackageFile(source.pkg, source.file);
    return body ? { body, type: source.type } : undefined;
  }
}

export function playgroundPage(options: { endpoint: string; defaultQuery: string; title?: string; available: boolean }): PlaygroundPage {
  const title = options.title ?? 'GraphiQL';
  const base = `${options.endpoint.replace(/\/$/, '')}/${assetsSegment}`;
  const body = options.available
    ? `<div id="graphiql" data-endpoint="${escapeHtml(options.endpoint)}" data-default-query="${escapeHtml(options.defaultQuery)}">Loading GraphiQL…</div>
<script src="${base}/react.production.min.js"></script>
<script src="${base}/react-dom.production.min.js"></script>
<script src="${base}/graphiql.min.js"></script>
<script src="${base}/start.js"></script>`
    : `<p>GraphiQL is not installed with this server (it is a development dependency: <code>npm install</code> without <code>--omit=dev</code> installs it).</p>`;
  const html = htmlPage(title, [`${base}/graphiql.min.css`, `${base}/page.css`], body);
  // GraphiQL sets style attributes and loads its fonts and icons from data: URLs.
  const contentSecurityPolicy = pageSecurityPolicy;
  return { html, contentSecurityPolicy };
}

/** The page's own style: GraphiQL fills the window. */
export const pageStyle = 'html, body { height: 100%; margin: 0; }\n#graphiql { height: 100vh; }\n';
