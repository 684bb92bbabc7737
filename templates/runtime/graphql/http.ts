/**
 * GraphQL over HTTP at the endpoint, readable in one function (`graphqlEndpoint`):
 *
 *   playground page? → authenticate → read the request (GET, POST JSON, POST multipart)
 *   → size limit → tokens and nesting → parse → fields and aliases → validate, depth
 *   included (cached, all linear: limits.ts) → resolve the operation → variables (values,
 *   nesting) → cost (cost.ts) → execute (a query planned once per document: execute.ts;
 *   anything else on graphql-js) → response size → answer.
 *
 * Answers follow Apollo Server 3 (what Strapi v4 runs): 200 with `{ data, errors }` once
 * execution started; 400 with `{ errors }` for a syntax error (`GRAPHQL_PARSE_FAILED`),
 * an invalid document or one past a limit — tokens, nesting, fields, aliases, depth, cost,
 * filter values — (`GRAPHQL_VALIDATION_FAILED`), bad variables (`BAD_USER_INPUT`) or a
 * malformed request; 405 for a mutation over GET; 413 past the document size limit. Nothing
 * has run when a request is refused. A response past `responseSizeLimit` is not sent: its
 * answer is the error `RESPONSE_TOO_LARGE`, 400 for a query, 200 for a mutation (it was
 * applied). Without introspection, graphql-js's "Did you mean …?" suggestions are left out.
 * A bad or foreign token is the REST 401 envelope (thrown to the error middleware).
 */
import type { Context, Next } from 'koa';
import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFormattedError,
  type OperationDefinitionNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { Authenticator } from '../auth/authenticate.js';
import type { AuthState } from '../auth/index.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { retryAfterSeconds, ServiceUnavailableError } from '../errors.js';
import { isMultipart } from '../http/body.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { readMultipart, type MultipartBody, type MultipartLimits } from '../upload/multipart.js';
import type { GraphqlContext } from './context.js';
import type { ListLimits } from './args.js';
import { operationCost } from './cost.js';
import { codes, formatError, requestError } from './errors.js';
import { executePlanned, planOperation, Unplanned, type OperationPlan } from './execute.js';
import { checkSelections, depthLimitRule, DocumentCache, type CachedDocument, maxNesting, scanSource, variableValueCount, variablesNesting, withoutSuggestions } from './limits.js';
import type { RelationLoader } from './loader.js';
import { assetsSegment, PlaygroundAssets, playgroundPage } from './playground.js';
import { toUpload } from './scalars.js';

export interface EndpointOptions {
  readonly endpoint: string;
  readonly schema: GraphQLSchema;
  readonly authenticator: Pick<Authenticator, 'authenticate'>;
  /** The playground page and introspection (development, staging, or `playgroundAlways`). */
  readonly playground: boolean;
  /** Deepest field nesting an operation may have; 0 or less: unlimited. */
  readonly depthLimit: number;
  /** Largest query document, in bytes. */
  readonly documentSizeLimit: number;
  /** Most tokens of a document; 0: unlimited. */
  readonly maxTokens: number;
  /** Most fields written in a document; 0: unlimited. */
  readonly maxFields: number;
  /** Most aliases in a document; 0: unlimited. */
  readonly maxAliases: number;
  /** Highest cost of an operation (cost.ts); 0: unlimited. */
  readonly maxComplexity: number;
  /** Largest response, in bytes of JSON; 0: unlimited. */
  readonly responseSizeLimit: number;
  /** Queries run on a plan per document (execute.ts); false: graphql-js runs everything. */
  readonly plannedExecution: boolean;
  /** The list limits the resolvers apply (the cost counts the items they allow). */
  readonly listLimits: ListLimits;
  /** Multipart requests (file uploads); absent: refused. */
  readonly multipart?: { readonly tmpDir: string; readonly limits: MultipartLimits };
  readonly newLoader: () => RelationLoader;
  /** Reshapes each error of an executed operation (the Strapi 5 endpoint drops `locations`, as Strapi 5 does). */
  readonly fieldError?: (error: GraphQLFormattedError) => GraphQLFormattedError;
  /**
   * Variables an input scalar refused (a zone item's unknown component) answered with graphql-js's
   * message and code only, as Strapi 5 (Apollo Server 4) does; otherwise with the scalar's own
   * error, as Strapi v4 (Apollo Server 3).
   */
  readonly plainVariableErrors?: boolean;
  /**
   * Answers in the media type the request's `Accept` prefers of `application/json` and
   * `application/graphql-response+json` (GraphQL over HTTP), as Strapi 5 (Apollo Server 4) does;
   * one that accepts neither is 406. Otherwise always `application/json`, as Strapi v4 (Apollo
   * Server 3).
   */
  readonly negotiateMediaType?: boolean;
  readonly cache?: DocumentCache;
  readonly log: (err: unknown) => void;
}

interface GraphqlRequest {
  readonly query?: unknown;
  readonly variables?: unknown;
  readonly operationName?: unknown;
}

/** A failure of the request itself, answered as `{ errors }` with its status. */
class RequestFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { errors: readonly GraphQLFormattedError[] },
    readonly headers: Record<string, string> = {},
  ) {
    super(body.errors[0]?.message ?? 'Bad Request');
  }
}

const fail = (status: number, message: string, code: string, headers?: Record<string, string>) => new RequestFailure(status, requestError(message, code), headers);

/** 503 for a request that needed the database while it could not be reached (told to `log`, see server.ts). */
function unavailableFailure(error: unknown, log: (err: unknown) => void): RequestFailure {
  log(error);
  const { name, message, details } = new ServiceUnavailableError();
  return new RequestFailure(503, { errors: [{ message, extensions: { error: { name, message, details }, code: codes.serviceUnavailable } }] }, { 'Retry-After': String(retryAfterSeconds) });
}

const graphqlMediaTypes = ['application/json', 'application/graphql-response+json'] as const;

export function graphqlEndpoint(options: EndpointOptions) {
  const cache = options.cache ?? new DocumentCache();
  // By operation node: a plan lives as long as its cached document.
  const plans = new WeakMap<OperationDefinitionNode, OperationPlan | null>();
  const costs = new WeakMap<OperationDefinitionNode, number>();
  const rules: ValidationRule[] = [
    ...specifiedRules,
    ...(options.depthLimit > 0 ? [depthLimitRule(options.depthLimit)] : []),
    ...(options.playground ? [] : [NoSchemaIntrospectionCustomRule]),
  ];
  const defaultQuery = exampleQuery(options.schema);
  // Suggestions would spell out the schema that introspection hides.
  const shown = options.playground ? (error: GraphQLFormattedError) => error : withoutSuggestions;
  const format = (error: GraphQLError, code: string) => shown(formatError(error, code, options.log, 'request'));
  const refuse = (error: GraphQLError) => new RequestFailure(400, { errors: [format(error, codes.validationFailed)] });

  const assets = options.playground ? new PlaygroundAssets() : undefined;
  const assetsPrefix = `${options.endpoint.replace(/\/$/, '')}/${assetsSegment}/`;

  return async function graphql(ctx: Context, next: Next): Promise<void> {
    if (assets && ctx.path.startsWith(assetsPrefix) && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      const asset = await assets.get(ctx.path.slice(assetsPrefix.length));
      if (!asset) return next();
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = asset.type;
      ctx.body = asset.body;
      return;
    }
    if (ctx.path !== options.endpoint) return next();
    let multipart: MultipartBody | undefined;
    // Apollo Server 4's choice: no Accept (or */*) is JSON; `application/graphql-response+json`
    // when preferred (Apollo Client 4 and urql ask for it first).
    const negotiated = options.negotiateMediaType ? ctx.accepts(...graphqlMediaTypes) : 'application/json';
    const mediaType = negotiated ? `${negotiated}; charset=utf-8` : 'application/json; charset=utf-8';
    try {
      if (!negotiated && (ctx.method === 'POST' || ctx.query.query !== undefined)) {
        // Strapi 5 runs the operation first, then refuses the answer; here nothing runs.
        throw fail(406, `An 'accept' header was provided for this request which does not accept ${graphqlMediaTypes.map((t) => `${t}; charset=utf-8`).join(' or ')}`, codes.badRequest);
      }
      if (ctx.method !== 'GET' && ctx.method !== 'POST') {
        throw fail(405, 'GraphQL is served over GET and POST only.', codes.badRequest, { Allow: 'GET, POST' });
      }
      if (ctx.method === 'GET' && ctx.query.query === undefined) {
        if (options.playground && ctx.accepts('application/json', 'text/html') === 'text/html') {
          const page = playgroundPage({ endpoint: options.endpoint, defaultQuery, available: assets?.available() ?? false });
          ctx.set('Content-Security-Policy', page.contentSecurityPolicy);
          ctx.type = 'text/html';
          ctx.body = page.html;
          return;
        }
        throw fail(400, 'GET query missing.', codes.badRequest);
      }

      // Who is calling: a bad or foreign token is the REST 401 envelope, like every route.
      const state = ctx.state as AuthState;
      const auth = await options.authenticator.authenticate(ctx);
      state.auth = auth;
      if (auth.user) state.user = auth.user;

      let request: GraphqlRequest;
      if (ctx.method === 'GET') request = { query: ctx.query.query, variables: jsonParam(ctx.query.variables, 'variables'), operationName: ctx.query.operationName };
      else if (isMultipart(ctx)) {
        if (!options.multipart) throw fail(400, 'Multipart requests are not accepted here.', codes.badRequest);
        multipart = await readMultipart(ctx.req, { tmpDir: options.multipart.tmpDir, limits: options.multipart.limits });
        request = multipartRequest(multipart);
      } else request = postBody((ctx.request as { body?: unknown }).body);

      const query = request.query;
      if (typeof query !== 'string' || query.trim() === '') {
        throw fail(400, ctx.method === 'GET' ? 'GET query missing.' : 'POST body missing, invalid Content-Type, or JSON object has no keys.', codes.badRequest);
      }
      if (request.variables !== undefined && request.variables !== null && !isPlainObject(request.variables)) {
        throw fail(400, '`variables` must be an object.', codes.badRequest);
      }
      if (request.operationName !== undefined && request.operationName !== null && typeof request.operationName !== 'string') {
        throw fail(400, '`operationName` must be a string.', codes.badRequest);
      }
      const size = Buffer.byteLength(query);
      if (size > options.documentSizeLimit) {
        throw fail(413, `The GraphQL document is ${size} bytes, more than the limit of ${options.documentSizeLimit} (plugins.graphql.documentSizeLimit).`, codes.badRequest);
      }

      const { document, errors } = documentOf(query);
      if (errors) throw new RequestFailure(400, { errors });
      const operation = getOperationAST(document!, (request.operationName as string | undefined) ?? undefined);
      if (!operation) {
        const message = request.operationName ? `Unknown operation named "${request.operationName}".` : 'Must provide operation name if query contains multiple operations.';
        throw fail(400, message, codes.operationResolution);
      }
      if (ctx.method === 'GET' && operation.operation !== 'query') {
        throw fail(405, `Can only perform a ${operation.operation} operation from a POST request.`, codes.badRequest, { Allow: 'POST' });
      }
      const variables = (request.variables as Record<string, unknown> | null | undefined) ?? undefined;
      // What the variables hold first (it stops early), then how deep (JSON scalars included).
      if (variables && options.maxTokens > 0 && variableValueCount(options.schema, operation, variables, options.maxTokens) > options.maxTokens) {
        throw fail(400, `The variables hold more than ${options.maxTokens} values (plugins.graphql.maxTokens).`, codes.badUserInput);
      }
      if (variables && variablesNesting(variables, maxNesting) > maxNesting) {
        throw fail(400, `The variables nest objects and lists more than ${maxNesting} levels deep.`, codes.badUserInput);
      }
      const coerced = checkCost(document!, operation, variables);

      const contextOf = (): GraphqlContext => ({ state, http: ctx, koaContext: ctx, loader: options.newLoader() });
      const plan = options.plannedExecution && coerced && planOf(document!, operation);
      let result: ExecutionResult | undefined;
      if (plan) {
        try {
          result = await executePlanned({ schema: options.schema, plan, contextValue: contextOf(), variableValues: coerced });
        } catch (err) {
          if (!(err instanceof Unplanned)) throw err;
          // A value the plan does not complete as graphql-js would: graphql-js runs this document from now on.
          plans.set(operation, null);
        }
      }
      result ??= await execute({
        schema: options.schema,
        document: document!,
        variableValues: variables,
        operationName: (request.operationName as string | null | undefined) ?? undefined,
        contextValue: contextOf(),
      });
      if (!('data' in result) || result.data === undefined) {
        // Execution never started: the variables did not fit the operation.
        const variableError = (e: GraphQLError) =>
          options.plainVariableErrors ? shown({ message: e.message, ...(e.locations ? { locations: e.locations } : {}), extensions: { code: codes.badUserInput } }) : format(e, codes.badUserInput);
        throw new RequestFailure(400, { errors: (result.errors ?? []).map(variableError) });
      }
      const fieldErrors = result.errors?.map((e) => formatError(e, codes.internal, options.log)).map((e) => options.fieldError?.(e) ?? e);
      const json = JSON.stringify({ ...(fieldErrors?.length ? { errors: fieldErrors } : {}), data: result.data });
      const bytes = Buffer.byteLength(json);
      if (options.responseSizeLimit > 0 && bytes > options.responseSizeLimit) {
        const mutation = operation.operation === 'mutation';
        const message = `The response is ${bytes} bytes, more than the limit of ${options.responseSizeLimit} (plugins.graphql.responseSizeLimit): ask for fewer items or fields.${mutation ? ' The mutation was applied.' : ''}`;
        ctx.status = mutation ? 200 : 400;
        ctx.body = { errors: [{ message, extensions: { code: codes.responseTooLarge } }], ...(mutation ? { data: null } : {}) };
        return;
      }
      // The database could not be reached for some field: 503 and when to try again, as REST answers.
      const unavailable = fieldErrors?.some((e) => e.extensions?.code === codes.serviceUnavailable);
      ctx.status = unavailable ? 503 : 200;
      if (unavailable) ctx.set('Retry-After', String(retryAfterSeconds));
      ctx.type = mediaType;
      ctx.body = json;
    } catch (thrown) {
      // Before execution too (e.g. looking up an API token): the database's absence is a GraphQL answer.
      const err = !(thrown instanceof RequestFailure) && isDatabaseUnavailable(thrown) ? unavailableFailure(thrown, options.log) : thrown;
      if (!(err instanceof RequestFailure)) throw err;
      ctx.status = err.status;
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      ctx.body = err.body;
      ctx.type = mediaType;
    } finally {
      await multipart?.cleanup();
    }
  };

  /** The plan of a validated operation, made on its first run (null: graphql-js runs it). */
  function planOf(document: DocumentNode, operation: OperationDefinitionNode): OperationPlan | null {
    let plan = plans.get(operation);
    if (plan === undefined) {
      try {
        plan = planOperation(options.schema, document, operation) ?? null;
      } catch (err) {
        if (!(err instanceof Unplanned)) throw err;
        plan = null;
      }
      plans.set(operation, plan);
    }
    return plan;
  }

  /**
   * Parsed and validated once per distinct document (bounded cache). Each step is linear in
   * the document, or bounded by the limit checked before it.
   */
  function documentOf(query: string): CachedDocument {
    const cached = cache.get(query);
    if (cached) return cached;
    let entry: CachedDocument;
    try {
      const refused = scanSource(query, { maxTokens: options.maxTokens, maxNesting });
      const document = refused === undefined ? parse(query) : undefined;
      const tooMany = document && checkSelections(document, { maxFields: options.maxFields, maxAliases: options.maxAliases });
      const reason = refused ?? tooMany;
      if (reason !== undefined) entry = { errors: [{ message: reason, extensions: { code: codes.validationFailed } }] };
      else {
        const errors = validate(options.schema, document!, rules);
        entry = errors.length ? { errors: errors.map((e) => format(e, codes.validationFailed)) } : { document: document! };
      }
    } catch (err) {
      if (!(err instanceof GraphQLError)) throw err;
      entry = { errors: [format(err, codes.parseFailed)] };
    }
    cache.set(query, entry);
    return entry;
  }

  /**
   * Refuses an operation that costs more than `maxComplexity`, or whose filters hold too
   * many values, before anything runs. Variables that do not fit are left to execute(),
   * which refuses them with its own errors; those that do are returned, coerced.
   */
  function checkCost(document: DocumentNode, operation: OperationDefinitionNode, inputs: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    const coerced = getVariableValues(options.schema, operation.variableDefinitions ?? [], inputs ?? {}, { maxErrors: 1 });
    if (coerced.errors) return undefined;
    // Without variables, an operation costs the same every time.
    const fixed = !operation.variableDefinitions?.length;
    let cost = fixed ? costs.get(operation) : undefined;
    if (cost === undefined) {
      try {
        cost = operationCost(options.schema, document, operation, coerced.coerced, options.listLimits);
      } catch (err) {
        if (!(err instanceof GraphQLError)) throw err;
        throw refuse(err);
      }
      if (fixed) costs.set(operation, cost);
    }
    if (options.maxComplexity > 0 && cost > options.maxComplexity) {
      const message = `The operation costs ${cost}, more than the limit of ${options.maxComplexity} (plugins.graphql.maxComplexity): each field counts 1, times the items of the lists it is in (their pagination, or defaultLimit). Ask for fewer items or fields.`;
      throw refuse(new GraphQLError(message, { nodes: operation }));
    }
    return coerced.coerced;
  }
}

function jsonParam(value: unknown, name: string): unknown {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw fail(400, `\`${name}\` must be JSON.`, codes.badRequest);
  try {
    return JSON.parse(value);
  } catch {
    throw fail(400, `\`${name}\` is not valid JSON.`, codes.badRequest);
  }
}

function postBody(body: unknown): GraphqlRequest {
  if (Array.isArray(body)) throw fail(400, 'Batched operations are not supported: send one operation per request.', codes.badRequest);
  if (!isPlainObject(body)) return {};
  return { query: body.query, variables: body.variables, operationName: body.operationName };
}

/**
 * The GraphQL multipart request spec: `operations` (the JSON request, files null), `map`
 * (file field → paths in it), then the files. Each file becomes an Upload value.
 */
function multipartRequest(body: MultipartBody): GraphqlRequest {
  const field = (name: string) => body.fields.get(name)?.[0];
  const operations = jsonField(field('operations'), 'operations');
  const map = jsonField(field('map'), 'map');
  if (!isPlainObject(operations)) throw fail(400, 'The `operations` field must be one operation (an object).', codes.badRequest);
  if (!isPlainObject(map)) throw fail(400, 'The `map` field must be an object.', codes.badRequest);
  for (const [fileField, paths] of Object.entries(map)) {
    const file = body.files.find((f) => f.field === fileField);
    if (!file) throw fail(400, `File missing in the request: ${fileField}.`, codes.badRequest);
    if (!Array.isArray(paths)) throw fail(400, `The \`map\` entry ${fileField} must be a list of paths.`, codes.badRequest);
    for (const path of paths) setPath(operations, String(path), toUpload(file));
  }
  return postBody(operations);
}

function jsonField(value: string | undefined, name: string): unknown {
  if (value === undefined) throw fail(400, `Missing multipart field \`${name}\`.`, codes.badRequest);
  try {
    return JSON.parse(value);
  } catch {
    throw fail(400, `Invalid JSON in the \`${name}\` multipart field.`, codes.badRequest);
  }
}

/** `variables.files.1` → operations.variables.files[1] = value (only inside variables). */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys[0] !== 'variables' || keys.length < 2 || keys.some((k) => k === '__proto__' || k === 'constructor' || k === 'prototype')) {
    throw fail(400, `Invalid \`map\` path "${path}": files go under variables.`, codes.badRequest);
  }
  let node: unknown = target;
  for (const key of keys.slice(0, -1)) {
    node = (node as Record<string, unknown>)?.[key];
    if (node === null || typeof node !== 'object') throw fail(400, `Invalid \`map\` path "${path}".`, codes.badRequest);
  }
  (node as Record<string, unknown>)[keys[keys.length - 1]!] = value;
}

/** The playground's first query: the first list query of the schema, or `__typename`. */
function exampleQuery(schema: GraphQLSchema): string {
  const query = schema.getQueryType();
  const list = Object.values(query?.getFields() ?? {}).find((f) => /EntityResponseCollection$/.test(String(f.type)));
  if (!list) return '{\n  __typename\n}\n';
  return `# Ctrl+Enter runs the query. Set "Authorization": "Bearer <token>" under Headers.\nquery {\n  ${list.name}(pagination: { limit: 10 }) {\n    data {\n      id\n    }\n    meta {\n      pagination {\n        total\n      }\n    }\n  }\n}\n`;
}
