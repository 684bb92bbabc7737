/**
 * The `plugins.populateDeep` and `plugins.transformer` sections of the emitted src/config.ts,
 * for a project that installs strapi-plugin-populate-deep or strapi-plugin-transformer
 * (generator/ir/community-plugins.ts); nothing for one that installs neither.
 */
import type { CommunityPluginSettings } from '../../ir/community-plugins.js';
import { tsLiteral } from '../ts-literal.js';

export function communityPluginsSection(settings: CommunityPluginSettings): string {
  const parts: string[] = [];
  if (settings.populateDeep) {
    parts.push(
      [
        '    // strapi-plugin-populate-deep (installed by the project): `populate=deep` and `populate=deep,N`',
        '    // populate every relation, media, component and dynamic zone N levels down (the entry',
        '    // counts as one), within api.rest.populate.maxDepth. defaultDepth: N of `populate=deep`.',
        `    populateDeep: ${tsLiteral(settings.populateDeep, '    ')},`,
      ].join('\n'),
    );
  }
  if (settings.transformer) {
    parts.push(
      [
        '    // strapi-plugin-transformer (installed by the project): flattened answers on the routes',
        '    // of src/api (contentTypeFilter) and of plugins listed in plugins.ids. Hooks are',
        '    // functions of the Koa context: hooks: { preResponseTransform(ctx) {}, postResponseTransform(ctx) {} }.',
        `    transformer: ${tsLiteral(settings.transformer, '    ')},`,
      ].join('\n'),
    );
  }
  return parts.join('\n');
}
