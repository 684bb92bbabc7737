/**
 * Mutations of the Strapi 5 schema, on the parts the other endpoints write with:
 *
 * - `createX(status, data, locale)`, `updateX(documentId, status, data, locale)`,
 *   `deleteX(documentId, locale): DeleteMutationResponse` (single types without documentId):
 *   the GraphQL input as a REST body (graphql/args.ts `toRestData`: components, zones by
 *   `__typename`), then the v5 REST dialect's write path (rest-v5/input.ts: relations and media
 *   by documentId, `status`, `locale`), then the v4 entity service (validation, lifecycles,
 *   webhooks). Errors in Strapi 5's words (rest-v5/errors.ts). An update of a missing document
 *   answers null, a delete the documentId it was given, as Strapi 5 does; an update in a locale
 *   the document lacks creates that localization (REST's `PUT ?locale=`).
 * - the users-permissions and upload plugins' mutations: the v4 endpoint's resolvers
 *   (graphql/plugin-resolvers.ts, which run the REST handlers), their answers as flat v5 nodes.
 *
 * Each mutation checks the action its REST twin's route names (one permission table).
 */
import { withDocumentView } from '../entity/drafts.js';
import type { Database } from '../db/database.js';
import { documentIdsOf } from '../entity/document-id.js';
import type { EntityService } from '../entity/service.js';
import { NotFoundError } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import type { Entry } from '../rest/transform.js';
import { toRestData } from '../graphql/args.js';
import type { GraphqlContext } from '../graphql/context.js';
import type { ResolverMap } from '../graphql/extension.js';
import * as naming from '../graphql/naming.js';
import { pluginResolvers, type PluginRuntime } from '../graphql/plugin-resolvers.js';
import { uploadScopes, usersPermissionsAuth, usersPermissionsNames } from '../graphql/plugins.js';
import { accessOf } from '../graphql/resolvers.js';
import { readShape } from '../graphql/selection.js';
import { verify } from '../graphql/wrap.js';
import { v5Error } from '../rest-v5/errors.js';
import { findDocument, firstRow, localeOf, rowsOfDocument } from '../rest-v5/identity.js';
import { InputTranslator } from '../rest-v5/input.js';
import { isStored } from './builtins.js';
import { fileUid, v5ContentTypes } from './sdl.js';

type Json = Record<string, unknown>;
type Resolver = (parent: unknown, args: any, context: GraphqlContext) => Promise<unknown>;

const userUid = 'plugin::users-permissions.user';

export interface V5MutationOptions {
  readonly registry: Registry;
  readonly db: Database;
  readonly service: (uid: string) => EntityService;
  /** An entry as the v5 node the schema answers (resolvers.ts); `documentId` when it is known (a deleted entry's). */
  readonly node: (context: GraphqlContext, meta: ContentTypeMeta, entry: Entry, draft: boolean, documentId?: string | null) => Promise<Json>;
  /** For the plugins' mutations. */
  readonly plugins: Omit<PluginRuntime, 'registry' | 'service'>;
}

export function v5Mutations(options: V5MutationOptions): ResolverMap {
  const { registry, db } = options;
  const inputs = new InputTranslator(registry);
  const mutations: Record<string, Resolver> = {};
  for (const meta of v5ContentTypes(registry)) {
    if (meta.plugin || !isStored(meta)) continue; // users, files, locales: their plugins' own mutations
    Object.assign(mutations, contentTypeMutations(meta));
  }
  Object.assign(mutations, pluginMutations());
  return { Mutation: mutations };

  function contentTypeMutations(meta: ContentTypeMeta): Record<string, Resolver> {
    const service = () => options.service(meta.uid);
    const whole = () => readShape(meta, undefined, registry) as Json;
    const draftOf = (args: Json) => meta.draftAndPublish && args.status === 'DRAFT';
    /** Runs a write as `action` of the type, its errors in Strapi 5's words. */
    const guarded =
      (action: string, run: (args: Json, context: GraphqlContext) => Promise<unknown>): Resolver =>
      async (_parent, args: Json, context) => {
        verify(context.state.auth, `${meta.uid}.${action}`);
        return run(args, context).catch(async (err: unknown) => {
          throw await v5Error(err, { db, registry, meta, body: { data: restBody(meta, args.data) }, creates: action === 'create', locale: typeof args.locale === 'string' ? args.locale : null });
        });
      };
    /** The write's body for the service: GraphQL input → REST body → v5 write (documentIds, status, locale). */
    const input = (args: Json, context: GraphqlContext, kind: 'create' | 'update', id?: number | null) =>
      inputs.translate(db, meta, { data: restBody(meta, args.data) }, args.status === 'DRAFT' ? 'draft' : 'published', kind, accessOf(context), args.locale ?? undefined, id);
    const answer = (context: GraphqlContext, args: Json, entry: Entry) => options.node(context, meta, entry, draftOf(args));
    const query = (locale: string | null) => ({ ...whole(), ...(locale === null ? {} : { locale }) });
    /** A new localization of the document whose other row is `other`, in `locale`. */
    const localize = async (args: Json, context: GraphqlContext, other: number, locale: string) => {
      const { data } = await input(args, context, 'create');
      return service().create({ data: { ...data, locale, localizations: [other] } }, query(locale), accessOf(context));
    };

    if (meta.kind === 'singleType') {
      return {
        [naming.updateMutationName(meta)]: guarded('update', async (args, context) => {
          const locale = localeOf(registry, meta, args.locale);
          const other = meta.localized && locale !== null && (await firstRow(db, meta, locale)) === null ? await firstRow(db, meta, null) : null;
          if (other !== null && locale !== null) return answer(context, args, await localize(args, context, other, locale));
          return answer(context, args, await service().upsertSingle(await input(args, context, 'update', await firstRow(db, meta, locale)), query(locale), accessOf(context)));
        }),
        [naming.deleteMutationName(meta)]: guarded('delete', async (args, context) => {
          const locale = localeOf(registry, meta, args.locale);
          const id = await firstRow(db, meta, locale);
          if (id === null) return null;
          const documentId = (await documentIdsOf(db, meta, [id])).get(id) ?? null;
          await service().deleteSingle(query(locale), accessOf(context)).catch(ignoreNotFound);
          return { documentId };
        }),
      };
    }
    return {
      [naming.createMutationName(meta)]: guarded('create', async (args, context) =>
        answer(context, args, await service().create(await input(args, context, 'create'), query(null), accessOf(context))),
      ),
      [naming.updateMutationName(meta)]: guarded('update', async (args, context) => {
        const locale = localeOf(registry, meta, args.locale);
        const id = await findDocument(db, meta, args.documentId, locale);
        if (id === null) {
          // A locale the document does not have yet: a new localization of it, sharing its documentId.
          const other = meta.localized && locale !== null ? await findDocument(db, meta, args.documentId, null) : null;
          return other === null || locale === null ? null : answer(context, args, await localize(args, context, other, locale));
        }
        // As the v5 REST PUT: `status: DRAFT` saves a published document's draft, anything else publishes it.
        const body = await input(args, context, 'update', id);
        const view = meta.draftAndPublish ? withDocumentView(query(locale), { status: draftOf(args) ? 'draft' : 'published' }) : query(locale);
        const updated = await service().updateDocument(id, body, view, accessOf(context)).catch(nullIfNotFound);
        return updated ? answer(context, args, updated) : null;
      }),
      [naming.deleteMutationName(meta)]: guarded('delete', async (args, context) => {
        // `locale: "*"`: every locale of the document.
        const ids = meta.localized && args.locale === '*' ? await rowsOfDocument(db, meta, args.documentId) : [await findDocument(db, meta, args.documentId, localeOf(registry, meta, args.locale))];
        for (const id of ids) if (id !== null) await service().delete(id, {}, accessOf(context)).catch(ignoreNotFound);
        return { documentId: args.documentId };
      }),
    };
  }

  /**
   * GraphQL input as a REST body: components and zones as REST has them, numeric ids of
   * relations and media as numbers. `publishedAt` and `locale`, which every input type has,
   * are the `status` and `locale` arguments' business (Strapi 5 ignores them in `data`).
   */
  function restBody(meta: ContentTypeMeta, data: unknown): Json {
    const { publishedAt: _publishedAt, locale: _locale, ...body } = toRestData(data, meta, registry);
    for (const [key, value] of Object.entries(body)) {
      const field: FieldMeta | undefined = meta.fields[key];
      if (field?.kind === 'relation' || field?.kind === 'media') body[key] = Array.isArray(value) ? value.map(rowIdOrDocumentId) : rowIdOrDocumentId(value);
    }
    return body;
  }

  function pluginMutations(): Record<string, Resolver> {
    const runtime: PluginRuntime = { ...options.plugins, registry, service: options.service };
    const resolvers = pluginResolvers(runtime);
    const out: Record<string, Resolver> = {};
    /** The documentId of the entry `id` names, read before a delete takes it. */
    const documentIdOf = async (meta: ContentTypeMeta, id: unknown) => ((await documentIdsOf(db, meta, [Number(id)])).get(Number(id)) ?? null);
    const userMeta = registry.contentTypes.get(userUid);
    if (userMeta) {
      const names = usersPermissionsNames(registry);
      const auth = usersPermissionsAuth(names);
      const v4 = (resolvers.usersPermissions(names, { hasUsers: true, hasRoles: true }) as { Mutation: Record<string, Resolver> }).Mutation;
      /** A login payload's or `{ data }` answer's user as a v5 node (with its documentId). */
      const withDocumentId = async (context: GraphqlContext, user: unknown): Promise<unknown> => {
        if (!user || typeof user !== 'object') return user;
        const id = Number((user as Json).id);
        const documentId = (await documentIdsOf(db, userMeta, [id])).get(id) ?? null;
        return { ...(user as Json), documentId };
      };
      for (const [name, resolver] of Object.entries(v4)) {
        const rule = auth[`Mutation.${name}`]?.auth;
        out[name] = async (parent, args, context) => {
          if (rule !== false) verify(context.state.auth, rule?.scope);
          const deleted = name === names.deleteUser ? await documentIdOf(userMeta, args.id) : undefined;
          const result = (await resolver(parent, args, context)) as Json | null;
          if (!result) return result;
          if ('data' in result) {
            const entry = result.data as Entry | null;
            return { data: entry ? await options.node(context, userMeta, entry, false, deleted) : null };
          }
          return 'user' in result ? { ...result, user: await withDocumentId(context, result.user) } : result;
        };
      }
    }
    const files = registry.contentTypes.get(fileUid);
    const upload = resolvers.upload?.() as { Mutation: Record<string, Resolver> } | undefined;
    if (files && upload) {
      const asNode = async (context: GraphqlContext, result: unknown, documentId?: string | null) => {
        const entry = (result as { data?: Entry | null } | null)?.data;
        return entry ? options.node(context, files, entry, false, documentId) : null;
      };
      out.updateUploadFile = async (parent, args, context) => {
        verify(context.state.auth, uploadScopes.upload);
        return asNode(context, await upload.Mutation.updateFileInfo!(parent, args, context));
      };
      out.deleteUploadFile = async (parent, args, context) => {
        verify(context.state.auth, uploadScopes.destroy);
        const documentId = await documentIdOf(files, args.id);
        return asNode(context, await upload.Mutation.removeFile!(parent, args, context), documentId);
      };
    }
    return out;
  }
}

/** A relation or media input value: a row id (digits) as a number, a documentId as it is. */
function rowIdOrDocumentId(value: unknown): unknown {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
}

/** Strapi 5 answers a delete of a document that is not there as one that was. */
function ignoreNotFound(err: unknown): void {
  if (!(err instanceof NotFoundError)) throw err;
}

function nullIfNotFound(err: unknown): null {
  if (err instanceof NotFoundError) return null;
  throw err;
}
