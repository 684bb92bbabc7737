/**
 * Handlebars templates, compiled once with `strict` (a missing field throws instead of
 * rendering empty) and `noEscape` (no HTML escaping in code).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

export const templatesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../templates');

const cache = new Map<string, Handlebars.TemplateDelegate>();

export function render(name: string, view: object): string {
  let template = cache.get(name);
  if (!template) {
    const source = readFileSync(path.join(templatesDir, name), 'utf8');
    template = Handlebars.compile(source, { strict: true, noEscape: true });
    cache.set(name, template);
  }
  return template(view);
}
