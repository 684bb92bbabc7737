/**
 * The client's run-time half: one `request` over `fetch`, the query string serialised as
 * `qs.stringify(query, { encodeValuesOnly: true })` does (query-string.ts), the `Authorization` header from an API token or a
 * user's JWT, and errors thrown as `StrapiError`. The per-type APIs below are thin: their
 * types (query.ts) carry what is specific to each content type.
 */
import { errorObjectOf, StrapiError } from './errors.js';
import { stringifyQuery } from './query-string.js';
import type {
  EntryQuery,
  EntryResponse,
  Exact,
  Filters,
  FindQuery,
  Given,
  FindResponse,
  FlatOf,
  Registry,
} from './query.js';

export interface ClientOptions {
  /** The server's origin, e.g. `http://localhost:1337` (routes are under `/api`). */
  url: string;
  /** The server's REST prefix (`api.rest.prefix` of its src/config.ts); default `/api`. */
  prefix?: string | undefined;
  /**
   * An API token or a user's JWT, sent as `Authorization: Bearer …`; a function is asked on
   * every request (e.g. to read the JWT a login stored). `setToken` replaces it.
   */
  token?: string | null | undefined | (() => string | null | undefined | Promise<string | null | undefined>);
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch | undefined;
}

/**
 * What every call takes last: passed through to `fetch` (`signal`, `cache`, `credentials`, and
 * framework extensions such as Next.js's `next: { revalidate, tags }`), its `headers` added to
 * the client's for this call only.
 */
export interface CallOptions extends Omit<RequestInit, 'method' | 'body' | 'headers'> {
  headers?: Record<string, string>;
  /** Next.js's data cache: `revalidate` (seconds, or `false`) and `tags` to revalidate by. */
  next?: { revalidate?: number | false; tags?: string[] };
}

/** What one request sends: a query (serialised as qs does), a JSON body or a multipart form, and the call's fetch options. */
export interface RequestOptions extends CallOptions {
  query?: object;
  body?: unknown;
  form?: FormData;
}

/** The part of the client every content type shares. */
export interface ClientCore {
  /** Replaces the token sent as `Authorization: Bearer …` (`null`: send none). */
  setToken(token: string | null): void;
  /** Any route of the server, e.g. a custom one: `request('GET', '/articles/featured')`. */
  request<T = unknown>(method: string, path: string, init?: RequestOptions): Promise<T>;
}

/** The query string of a request, exactly as `qs.stringify(query, { encodeValuesOnly: true })` writes it. */
export function queryString(query: object | undefined): string {
  if (!query) return '';
  const text = stringifyQuery(query);
  return text === '' ? '' : `?${text}`;
}

export function createClientCore(options: ClientOptions): ClientCore {
  let token = options.token;
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = `${options.url.replace(/\/+$/, '')}${options.prefix ?? '/api'}`;

  return {
    setToken(next) {
      token = next;
    },
    async request<T>(method: string, path: string, init: RequestOptions = {}): Promise<T> {
      const { query, body: json, form, headers: callHeaders, ...fetchInit } = init;
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...callHeaders };
      const bearer = typeof token === 'function' ? await token() : token;
      if (bearer) headers['authorization'] = `Bearer ${bearer}`;
      let body: BodyInit | undefined;
      if (form) body = form;
      else if (json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(json);
      }
      const response = await fetchFn(`${base}${path}${queryString(query)}`, {
        ...fetchInit,
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!response.ok) throw new StrapiError(response.status, errorObjectOf(response.status, response.statusText, parsed));
      return parsed as T;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Content types

/** The `data` a create or update of the type accepts (`<Type>Input`). */
export type InputOf<I, U> = U extends keyof I ? I[U] : never;

/**
 * The `data` a create accepts: the input with attributes `N` (the required ones) given, as the
 * server validates a create as published (Strapi sets `publishedAt` unless the data gives one);
 * or, on a draft-and-publish type, a draft (`publishedAt: null`), whose required attributes the
 * server checks at its publication.
 */
export type CreateInputOf<I, U, N extends string> =
  | ('publishedAt' extends keyof InputOf<I, U> ? InputOf<I, U> & { publishedAt: null } : never)
  | (InputOf<I, U> & { [K in N & keyof InputOf<I, U>]-?: Exclude<InputOf<I, U>[K], undefined | null> });

/**
 * A collection type's routes (`/api/<plural>`, `/api/<plural>/:id`). The answer's type
 * follows the query's `fields` and `populate`. `N`: the attributes a create must give (the
 * required ones: the server validates a create as published unless it is a draft).
 */
export interface CollectionApi<R extends Registry, I, U extends string, N extends string = never> {
  find<const Q extends FindQuery<R, U>>(query?: Q & Exact<Q, FindQuery<R, U>>, options?: CallOptions): Promise<FindResponse<R, U, Given<Q, FindQuery<R, U>>>>;
  findOne<const Q extends EntryQuery<R, U>>(id: number | string, query?: Q & Exact<Q, EntryQuery<R, U>>, options?: CallOptions): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
  create<const Q extends EntryQuery<R, U>>(data: CreateInputOf<I, U, N>, query?: Q & Exact<Q, EntryQuery<R, U>>, options?: CallOptions): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
  update<const Q extends EntryQuery<R, U>>(
    id: number | string,
    data: InputOf<I, U>,
    query?: Q & Exact<Q, EntryQuery<R, U>>,
    options?: CallOptions,
  ): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
  delete<const Q extends EntryQuery<R, U>>(id: number | string, query?: Q & Exact<Q, EntryQuery<R, U>>, options?: CallOptions): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
}

/**
 * A single type's routes (`/api/<singular>`). `N`: the attributes the PUT that creates it must
 * give (as a collection type's create: the required ones, unless it is a draft).
 */
export interface SingleApi<R extends Registry, I, U extends string, N extends string = never> {
  find<const Q extends EntryQuery<R, U>>(query?: Q & Exact<Q, EntryQuery<R, U>>, options?: CallOptions): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
  /**
   * `PUT /api/<singular>` while the single type does not exist yet: the server creates it and
   * validates `data` as a create, so its required attributes must be given (else 400 `<name>
   * must be defined.`). On an existing single type it is the same request as `update`.
   */
  create<const Q extends EntryQuery<R, U>>(data: CreateInputOf<I, U, N>, query?: Q & Exact<Q, EntryQuery<R, U>>, options?: CallOptions): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
  /** `PUT /api/<singular>` of the existing single type: it writes the attributes given. */
  update<const Q extends EntryQuery<R, U>>(data: InputOf<I, U>, query?: Q & Exact<Q, EntryQuery<R, U>>, options?: CallOptions): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
  delete<const Q extends EntryQuery<R, U>>(query?: Q & Exact<Q, EntryQuery<R, U>>, options?: CallOptions): Promise<EntryResponse<R, U, Given<Q, EntryQuery<R, U>>>>;
}

/** The answer of `createLocalization`: the new entry itself (no envelope), with its group's localizations. */
export type LocalizationResponse<R extends Registry, U> = FlatOf<R, U> & { localizations: FlatOf<R, U>[] };

/** A localized collection type's routes: the collection's, and `POST /api/<plural>/:id/localizations`. */
export interface LocalizedCollectionApi<R extends Registry, I, U extends string, N extends string = never> extends CollectionApi<R, I, U, N> {
  /** A new localization of entry `id`'s group, in `data.locale` (Strapi's unwrapped body; shared attributes come from the group). */
  createLocalization(id: number | string, data: Partial<InputOf<I, U>> & { locale: string }, options?: CallOptions): Promise<LocalizationResponse<R, U>>;
}

/** A localized single type's routes: the single type's, and `POST /api/<singular>/localizations`. */
export interface LocalizedSingleApi<R extends Registry, I, U extends string, N extends string = never> extends SingleApi<R, I, U, N> {
  /** A new localization of the single type, in `data.locale` (Strapi's unwrapped body). */
  createLocalization(data: Partial<InputOf<I, U>> & { locale: string }, options?: CallOptions): Promise<LocalizationResponse<R, U>>;
}

export function collectionApi<R extends Registry, I, U extends string, N extends string = never>(core: ClientCore, path: string): CollectionApi<R, I, U, N> {
  const one = (id: number | string) => `${path}/${encodeURIComponent(String(id))}`;
  return {
    find: (query?: object, options?: CallOptions) => core.request('GET', path, { ...options, query }),
    findOne: (id: number | string, query?: object, options?: CallOptions) => core.request('GET', one(id), { ...options, query }),
    create: (data: unknown, query?: object, options?: CallOptions) => core.request('POST', path, { ...options, query, body: { data } }),
    update: (id: number | string, data: unknown, query?: object, options?: CallOptions) => core.request('PUT', one(id), { ...options, query, body: { data } }),
    delete: (id: number | string, query?: object, options?: CallOptions) => core.request('DELETE', one(id), { ...options, query }),
  } as CollectionApi<R, I, U, N>;
}

export function singleApi<R extends Registry, I, U extends string, N extends string = never>(core: ClientCore, path: string): SingleApi<R, I, U, N> {
  const put = (data: unknown, query?: object, options?: CallOptions) => core.request('PUT', path, { ...options, query, body: { data } });
  return {
    find: (query?: object, options?: CallOptions) => core.request('GET', path, { ...options, query }),
    create: put,
    update: put,
    delete: (query?: object, options?: CallOptions) => core.request('DELETE', path, { ...options, query }),
  } as SingleApi<R, I, U, N>;
}

export function localizedCollectionApi<R extends Registry, I, U extends string, N extends string = never>(core: ClientCore, path: string): LocalizedCollectionApi<R, I, U, N> {
  return {
    ...collectionApi<R, I, U, N>(core, path),
    createLocalization: (id: number | string, data: unknown, options?: CallOptions) =>
      core.request('POST', `${path}/${encodeURIComponent(String(id))}/localizations`, { ...options, body: data }),
  } as LocalizedCollectionApi<R, I, U, N>;
}

export function localizedSingleApi<R extends Registry, I, U extends string, N extends string = never>(core: ClientCore, path: string): LocalizedSingleApi<R, I, U, N> {
  return {
    ...singleApi<R, I, U, N>(core, path),
    createLocalization: (data: unknown, options?: CallOptions) => core.request('POST', `${path}/localizations`, { ...options, body: data }),
  } as LocalizedSingleApi<R, I, U, N>;
}

// ---------------------------------------------------------------------------------------------
// users-permissions and upload

const userUid = 'plugin::users-permissions.user';
const fileUid = 'plugin::upload.file';
type UserUid = typeof userUid;
type FileUid = typeof fileUid;

/** A user as users-permissions answers it: without Strapi's envelope, private attributes left out. */
export type UserOf<R extends Registry, Q = {}> = FlatOf<R, UserUid, Q>;

/** The answer of login, register (without email confirmation) and the password flows. */
export interface AuthResponse<R extends Registry> {
  jwt: string;
  user: UserOf<R>;
}

/** users-permissions' routes (`/api/auth/*`, `/api/users/me`). */
export interface AuthApi<R extends Registry> {
  /** `POST /api/auth/local`; pass the answer's `jwt` to `setToken` to act as the user. */
  login(credentials: { identifier: string; password: string }, options?: CallOptions): Promise<AuthResponse<R>>;
  /** `POST /api/auth/local/register`; with email confirmation on, the answer has no `jwt` (`if (answer.jwt)` narrows). */
  register(user: { username: string; email: string; password: string; [attribute: string]: unknown }, options?: CallOptions): Promise<AuthResponse<R> | { jwt?: undefined; user: UserOf<R> }>;
  /** `GET /api/users/me`: the user of the JWT sent. */
  me<const Q extends EntryQuery<R, UserUid>>(query?: Q & Exact<Q, EntryQuery<R, UserUid>>, options?: CallOptions): Promise<UserOf<R, Given<Q, EntryQuery<R, UserUid>>>>;
  forgotPassword(body: { email: string }, options?: CallOptions): Promise<{ ok: true }>;
  resetPassword(body: { code: string; password: string; passwordConfirmation: string }, options?: CallOptions): Promise<AuthResponse<R>>;
  changePassword(body: { currentPassword: string; password: string; passwordConfirmation: string }, options?: CallOptions): Promise<AuthResponse<R>>;
  sendEmailConfirmation(body: { email: string }, options?: CallOptions): Promise<{ email: string; sent: true }>;
}

export function authApi<R extends Registry>(core: ClientCore): AuthApi<R> {
  const post = (path: string) => (body: unknown, options?: CallOptions) => core.request('POST', path, { ...options, body });
  return {
    login: post('/auth/local'),
    register: post('/auth/local/register'),
    me: (query?: object, options?: CallOptions) => core.request('GET', '/users/me', { ...options, query }),
    forgotPassword: post('/auth/forgot-password'),
    resetPassword: post('/auth/reset-password'),
    changePassword: post('/auth/change-password'),
    sendEmailConfirmation: post('/auth/send-email-confirmation'),
  } as AuthApi<R>;
}

/**
 * users-permissions' user routes (`/api/users`): users answer without Strapi's envelope, and
 * `find` answers a plain list. `data` of create and update is the user itself, not `{ data }`.
 */
export interface UsersApi<R extends Registry, I> {
  find<const Q extends FindQuery<R, UserUid>>(query?: Q & Exact<Q, FindQuery<R, UserUid>>, options?: CallOptions): Promise<UserOf<R, Given<Q, FindQuery<R, UserUid>>>[]>;
  /** A missing user is answered 204 without a body: `undefined` (as users-permissions does). */
  findOne<const Q extends EntryQuery<R, UserUid>>(id: number | string, query?: Q & Exact<Q, EntryQuery<R, UserUid>>, options?: CallOptions): Promise<UserOf<R, Given<Q, EntryQuery<R, UserUid>>> | undefined>;
  count(query?: { filters?: Filters<R, UserUid> }, options?: CallOptions): Promise<number>;
  create(user: InputOf<I, UserUid> & { username: string; email: string; password: string }, options?: CallOptions): Promise<UserOf<R>>;
  update(id: number | string, user: InputOf<I, UserUid>, options?: CallOptions): Promise<UserOf<R>>;
  delete(id: number | string, options?: CallOptions): Promise<UserOf<R>>;
}

export function usersApi<R extends Registry, I>(core: ClientCore): UsersApi<R, I> {
  const one = (id: number | string) => `/users/${encodeURIComponent(String(id))}`;
  return {
    find: (query?: object, options?: CallOptions) => core.request('GET', '/users', { ...options, query }),
    findOne: (id: number | string, query?: object, options?: CallOptions) => core.request('GET', one(id), { ...options, query }),
    count: (query?: object, options?: CallOptions) => core.request('GET', '/users/count', { ...options, query }),
    create: (user: unknown, options?: CallOptions) => core.request('POST', '/users', { ...options, body: user }),
    update: (id: number | string, user: unknown, options?: CallOptions) => core.request('PUT', one(id), { ...options, body: user }),
    delete: (id: number | string, options?: CallOptions) => core.request('DELETE', one(id), options),
  } as UsersApi<R, I>;
}

/** Per file: `name`, `alternativeText`, `caption`. */
export type FileInfo = { name?: string; alternativeText?: string; caption?: string };

/** The media fields of content type or component `T` (not relations to files, such as a folder's `files`). */
export type MediaFieldOf<R extends Registry, T extends keyof R> = {
  [K in keyof R[T]['relations']]: R[T]['relations'][K] extends { media: true } ? K : never;
}[keyof R[T]['relations']] &
  string;

/**
 * Where a file can be attached: an entry (`ref` its content type's uid, `refId` its id) or a
 * component instance (`ref` the component's uid, `refId` the instance's id), and one of the
 * media fields of that type or component (`field`).
 */
export type UploadRef<R extends Registry> = {
  [T in keyof R & string]: [MediaFieldOf<R, T>] extends [never] ? never : { ref: T; refId: number | string; field: MediaFieldOf<R, T> };
}[keyof R & string];

/** Where an upload is attached (`ref`, `refId`, `field`: all or none), and each file's info. */
export type UploadTarget<R extends Registry> = { fileInfo?: FileInfo | FileInfo[] } & (UploadRef<R> | { ref?: undefined; refId?: undefined; field?: undefined });

/** The upload plugin's routes (`/api/upload`). */
export interface UploadApi<R extends Registry> {
  /** `POST /api/upload` (multipart): the files, attached to an entry when `target` says where. */
  upload(files: Blob | readonly Blob[], target?: UploadTarget<R>, options?: CallOptions): Promise<FlatOf<R, FileUid>[]>;
  /** `GET /api/upload/files`. */
  find(query?: { filters?: object; sort?: string | readonly string[]; pagination?: object }, options?: CallOptions): Promise<FlatOf<R, FileUid>[]>;
  findOne(id: number | string, options?: CallOptions): Promise<FlatOf<R, FileUid>>;
  delete(id: number | string, options?: CallOptions): Promise<FlatOf<R, FileUid>>;
}

export function uploadApi<R extends Registry>(core: ClientCore): UploadApi<R> {
  return {
    upload(files: Blob | readonly Blob[], target: { ref?: string; refId?: number | string; field?: string; fileInfo?: FileInfo | FileInfo[] } = {}, options?: CallOptions) {
      const form = new FormData();
      for (const file of Array.isArray(files) ? files : [files]) form.append('files', file, (file as { name?: string }).name ?? 'file');
      if (target.ref !== undefined) form.append('ref', target.ref);
      if (target.refId !== undefined) form.append('refId', String(target.refId));
      if (target.field !== undefined) form.append('field', target.field);
      // One fileInfo field per file, in the files' order, as Strapi's upload reads them.
      const infos = target.fileInfo === undefined ? [] : Array.isArray(target.fileInfo) ? target.fileInfo : [target.fileInfo];
      for (const info of infos) form.append('fileInfo', JSON.stringify(info));
      return core.request('POST', '/upload', { ...options, form });
    },
    find: (query?: object, options?: CallOptions) => core.request('GET', '/upload/files', { ...options, query }),
    findOne: (id: number | string, options?: CallOptions) => core.request('GET', `/upload/files/${encodeURIComponent(String(id))}`, options),
    delete: (id: number | string, options?: CallOptions) => core.request('DELETE', `/upload/files/${encodeURIComponent(String(id))}`, options),
  } as UploadApi<R>;
}
