/**
 * `POST /api/<plural>/:id/localizations` and `POST /api/<singular>/localizations` of a
 * localized type (action `<uid>.createLocalization`): an unwrapped body (`{ locale, ... }`)
 * and a bare answer, as Strapi's i18n core-api handler.
 */
import { ApplicationError } from '../errors.js';
import type { ContentTypeMeta } from '../meta.js';
import type { Route, RouteContext } from '../rest/routes.js';
import { LocalizedEntityService } from './service.js';

export function localizationRoutes(meta: ContentTypeMeta): Route[] {
  if (!meta.localized) return [];
  const single = meta.kind === 'singleType';
  return [
    {
      method: 'POST',
      path: single ? `/${meta.singularName}/localizations` : `/${meta.pluralName}/:id/localizations`,
      meta,
      action: `${meta.uid}.createLocalization`,
      handler: async (ctx: RouteContext) => {
        const service = ctx.state.service;
        if (!(service instanceof LocalizedEntityService)) throw new ApplicationError('createLocalization needs the core service of a localized type');
        return service.createLocalization(single ? null : ctx.params.id, (ctx.request as { body?: unknown }).body, ctx.state.access);
      },
    },
  ];
}
