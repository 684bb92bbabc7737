/**
 * The i18n plugin's GraphQL parts, as Strapi's `@strapi/plugin-i18n` registers them
 * (server/graphql): the `I18NLocaleCode` scalar (a literal must be a known ISO locale or
 * `all`; variables are not checked), `locale` and `localizations` left out of the localized
 * types' inputs, `createXLocalization(id, data, locale)` guarded by `<uid>.createLocalization`,
 * and the locale type's queries without mutations (`i18NLocale(s)`, guarded here by
 * `plugin::i18n.locales.listLocales`, the action that lists them over REST: Strapi asks for
 * `plugin::i18n.locale.find`, which no role can be granted). The `locale` argument of the
 * localized types' queries and mutations is in sdl.ts. No runtime dependencies: the
 * generator runs it to print schema.graphql.
 */
import { GraphQLScalarType, Kind, print } from 'graphql';
import { isIsoLocale } from '../i18n/iso-locales.js';
import { scalarBehaviour } from './scalars.js';
import type { ContentTypeMeta, Registry } from '../meta.js';
import { document, objectTypeExtension, scalarType, type FieldSpec } from './ast.js';
import type { GraphqlExtensionService, ResolverConfig, ResolverMap, TypeRegistry } from './extension.js';
import * as naming from './naming.js';

export const localeUid = 'plugin::i18n.locale';
export const localeScalarName = 'I18NLocaleCode';
/** The i18n plugin's one Content API action: reading the locales (REST `GET /api/i18n/locales`, GraphQL `i18NLocales`). */
export const listLocalesAction = 'plugin::i18n.locales.listLocales';

/** `createPageLocalization`. */
export function createLocalizationMutationName(meta: ContentTypeMeta): string {
  return `create${naming.typeName(meta)}Localization`;
}

/** The resolvers of createXLocalization, by content type uid (on the server). */
export type LocalizationResolvers = (meta: ContentTypeMeta) => (parent: unknown, args: any, context: any, info: any) => unknown;

export function registerI18n(extension: GraphqlExtensionService, registry: Registry, createLocalization?: LocalizationResolvers): void {
  const locale = registry.contentTypes.get(localeUid);
  if (!locale) return;
  extension.shadowCRUD(localeUid).disableMutations();
  const localized = [...registry.contentTypes.values()].filter((meta) => meta.localized);
  for (const meta of localized) {
    extension.shadowCRUD(meta.uid).field('locale').disableInput();
    extension.shadowCRUD(meta.uid).field('localizations').disableInput();
  }
  extension.use(({ typeRegistry }: { typeRegistry: TypeRegistry }) => {
    const resolversConfig: Record<string, ResolverConfig> = {
      [`Query.${naming.findQueryName(locale)}`]: { auth: { scope: [listLocalesAction] } },
      [`Query.${naming.findOneQueryName(locale)}`]: { auth: { scope: [listLocalesAction] } },
    };
    const mutations: FieldSpec[] = [];
    const resolvers: Record<string, Record<string, unknown>> = {};
    for (const meta of localized) {
      const response = naming.entityResponseName(meta);
      const input = naming.inputName(meta);
      if (!typeRegistry.has(response) || !typeRegistry.has(input) || !extension.shadowCRUD(meta.uid).areMutationsEnabled()) continue;
      const name = createLocalizationMutationName(meta);
      mutations.push({
        name,
        type: response,
        args: [
          { name: 'id', type: 'ID' },
          { name: 'data', type: input },
          { name: 'locale', type: localeScalarName },
        ],
      });
      resolversConfig[`Mutation.${name}`] = { auth: { scope: [`${meta.uid}.createLocalization`] } };
      if (createLocalization) (resolvers.Mutation ??= {})[name] = createLocalization(meta);
    }
    const typeDefs = print(
      document([scalarType(localeScalarName, 'A string used to identify an i18n locale'), ...(mutations.length > 0 ? [objectTypeExtension('Mutation', mutations)] : [])]),
    );
    return { typeDefs, resolversConfig, resolvers: { ...resolvers, [localeScalarName]: scalarBehaviour(localeScalar) } as ResolverMap };
  });
}

/**
 * Strapi's scalar: any string value; a literal must be `all` or a known ISO locale code. A
 * refused literal fails the query's validation, as in Strapi: graphql-js reports an error
 * that is not a GraphQLError as `Expected value of type "I18NLocaleCode", found "xx";
 * Unknown locale supplied` (GRAPHQL_VALIDATION_FAILED, 400). Thrown as a plain Error: an
 * application error here would be answered as the resolver's BAD_USER_INPUT (errors.ts).
 */
const localeScalar = new GraphQLScalarType({
  name: localeScalarName,
  description: 'A string used to identify an i18n locale',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new Error('Locale cannot represent non string type');
    if (ast.value !== 'all' && !isIsoLocale(ast.value)) throw new Error('Unknown locale supplied');
    return ast.value;
  },
});
