/**
 * The pieces the server's own browser pages share (GraphiQL at the GraphQL endpoint, Swagger
 * UI at /documentation): a page that loads only this server's files, under a strict policy,
 * and the installed packages those files are read from.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Only this server's scripts (no inline script), styles with the style attributes the UIs
 * set, fonts and icons from data: URLs, requests to this server.
 */
export const pageSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page with these stylesheets and body; no favicon request. */
export function htmlPage(title: string, stylesheets: readonly string[], body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
${stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n')}
</head>
<body>
${body}
</body>
</html>
`;
}

const require = createRequire(import.meta.url);

/** Whether every package is installed with this server. */
export function packagesInstalled(...names: readonly string[]): boolean {
  try {
    for (const name of names) require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/** A file of an installed package, found from its package.json (its `exports` may not list the file). */
export async function readPackageFile(name: string, file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path.join(path.dirname(require.resolve(`${name}/package.json`)), file));
  } catch {
    return undefined;
  }
}
