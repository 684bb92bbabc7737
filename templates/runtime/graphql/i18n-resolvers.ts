/**
 * `createXLocalization(id, data, locale)`: the REST localization handler's work (i18n/service.ts)
 * with the GraphQL input, answering `XEntityResponse` (Strapi: `{ ...data, locale }` as the body).
 */
import type { GraphQLResolveInfo } from 'graphql';
import { ApplicationError } from '../errors.js';
import { LocalizedEntityService } from '../i18n/service.js';
import type { ContentTypeMeta } from '../meta.js';
import { toRestData } from './args.js';
import type { GraphqlContext } from './context.js';
import type { PluginRuntime } from './plugin-resolvers.js';
import { accessOf, entityNode } from './resolvers.js';
import { readShape, selectedAttributes } from './selection.js';

export function createLocalizationResolver(meta: ContentTypeMeta, runtime: PluginRuntime) {
  return async (_parent: unknown, args: { id?: string; data?: unknown; locale?: string }, context: GraphqlContext, info: GraphQLResolveInfo) => {
    const service = runtime.service(meta.uid);
    if (!(service instanceof LocalizedEntityService)) throw new ApplicationError('createLocalization needs the core service of a localized type');
    const shape = readShape(meta, selectedAttributes(info, ['data', 'attributes']), runtime.registry);
    const query = { ...(shape.fields ? { fields: shape.fields } : {}), populate: shape.populate };
    const body = { ...toRestData(args.data, meta, runtime.registry), locale: args.locale };
    const entry = await service.createLocalizationEntry(meta.kind === 'singleType' ? null : (args.id ?? ''), body, query, accessOf(context));
    return { data: entityNode(meta, entry) };
  };
}
