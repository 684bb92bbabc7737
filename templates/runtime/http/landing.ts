/**
 * `GET /` outside production: a page linking what this server serves (each content type's REST
 * route, GraphQL, the API documentation), as Strapi's `strapi::public` shows its welcome page in
 * development. In production `/` stays an unknown route (404).
 */
import type Koa from 'koa';
import type { Registry } from '../meta.js';

export interface LandingOptions {
  readonly registry: Registry;
  readonly prefix: string;
  /** Names of the mounted plugins (`graphql`, `documentation`): their pages are linked. */
  readonly plugins: readonly string[];
}

export function landingPage(options: LandingOptions): Koa.Middleware {
  let html: string | undefined;
  return async (ctx, next) => {
    if (ctx.path !== '/' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    html ??= render(options);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };
}

function render({ registry, prefix, plugins }: LandingOptions): string {
  const types = [...registry.contentTypes.values()].filter((ct) => !ct.plugin).sort((a, b) => (a.uid < b.uid ? -1 : 1));
  const item = (href: string, label: string, note = '') => `<li><a href="${escape(href)}">${escape(label)}</a>${note ? ` ${escape(note)}` : ''}</li>`;
  const rest = types.map((ct) => {
    const path = `${prefix}/${ct.kind === 'singleType' ? ct.singularName : ct.pluralName}`;
    return item(`${path}?populate=*`, path, `(${ct.uid}${ct.kind === 'singleType' ? ', single type' : ''})`);
  });
  const tools = [
    ...(plugins.includes('graphql') ? [item('/graphql', '/graphql', '(GraphQL; the playground in a browser)')] : []),
    ...(plugins.includes('documentation') ? [item('/documentation', '/documentation', '(the REST API, OpenAPI with Swagger UI)')] : []),
    item('/_health', '/_health', '(204 while the server and its database answer)'),
  ];
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>content server</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
<h1>The server is running</h1>
<p>This page is shown outside production only. Routes answer as the role of the caller allows (the public role without a token).</p>
<h2>REST</h2>
<ul>
${rest.join('\n')}
</ul>
<h2>Tools</h2>
<ul>
${tools.join('\n')}
</ul>
</body>
</html>
`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
