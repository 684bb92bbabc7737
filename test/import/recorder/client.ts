/**
 * Talking to the Strapi being recorded: JSON requests that fail loudly, multipart uploads, a
 * recorder of answers, deep `populate` written out level by level, and small generated PNGs.
 */
import qs from 'qs';
import sharp from 'sharp';
import type { RecordedRequest } from '../../helpers/strapi-data.js';
import type { ModelSchema } from './app.js';

export type Auth = { kind: 'public' } | { kind: 'token'; name: string; key: string } | { kind: 'user'; name: string; jwt: string };

export const publicAuth: Auth = { kind: 'public' };

export type UploadFile = { name: string; type: string; data: Buffer };


function headers(auth: Auth): Record<string, string> {
  if (auth.kind === 'token') return { authorization: `Bearer ${auth.key}` };
  if (auth.kind === 'user') return { authorization: `Bearer ${auth.jwt}` };
  return {};
}

/** JSON, or the text itself when Strapi answers plain text (koa's "Internal Server Error"). */
function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const authLabel = (auth: Auth) => (auth.kind === 'public' ? 'public' : auth.kind === 'token' ? `token:${auth.name}` : `user:${auth.name}`);

export class StrapiClient {
  readonly answers: RecordedRequest[] = [];

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, auth: Auth, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<{ status: number; json: any }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...headers(auth), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extraHeaders },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: parseBody(text) };
  }

  /** A write or read of the fill: anything but 2xx stops the recording. */
  async send(method: string, path: string, auth: Auth, body?: unknown): Promise<any> {
    const { status, json } = await this.request(method, path, auth, body);
    if (status < 200 || status > 299) throw new Error(`${method} ${path} → ${status}: ${JSON.stringify(json)}\nbody: ${JSON.stringify(body)}`);
    return json;
  }

  /** A request whose answer goes into answers.<dialect>.json, whatever its status; `extraHeaders` are recorded as `headers`. */
  async record(name: string, method: string, path: string, auth: Auth, body?: unknown, extraHeaders?: Record<string, string>): Promise<any> {
    const { status, json } = await this.request(method, path, auth, body, extraHeaders);
    this.answers.push({ name, method, path, ...(extraHeaders ? { headers: extraHeaders } : {}), auth: authLabel(auth), ...(body === undefined ? {} : { body }), status, answer: json });
    return json;
  }

  async graphql(name: string, query: string, auth: Auth, variables: Record<string, unknown> = {}): Promise<any> {
    return this.record(name, 'POST', '/graphql', auth, { query, variables });
  }

  /** POST /api/upload (or ?id= to update one) with generated files and form fields. */
  async upload(auth: Auth, files: UploadFile[], fields: Record<string, string> = {}, query = ''): Promise<any> {
    const { status, json } = await this.postForm(auth, files, fields, query);
    if (status < 200 || status > 299) throw new Error(`POST /api/upload${query} → ${status}: ${JSON.stringify(json)}`);
    return json;
  }

  /** An upload whose answer is recorded, whatever its status; `body` records the file names, types and sizes and the fields. */
  async recordUpload(name: string, auth: Auth, files: UploadFile[], fields: Record<string, string> = {}, query = ''): Promise<any> {
    const { status, json } = await this.postForm(auth, files, fields, query);
    const body = { files: files.map((f) => ({ name: f.name, type: f.type, size: f.data.length })), ...fields };
    this.answers.push({ name, method: 'POST', path: `/api/upload${query}`, auth: authLabel(auth), body, status, answer: json });
    return json;
  }

  private async postForm(auth: Auth, files: UploadFile[], fields: Record<string, string>, query: string): Promise<{ status: number; json: any }> {
    const form = new FormData();
    for (const file of files) form.append('files', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const response = await fetch(`${this.baseUrl}/api/upload${query}`, { method: 'POST', headers: headers(auth), body: form });
    return { status: response.status, json: parseBody(await response.text()) };
  }
}

export const query = (params: Record<string, unknown>) => `?${qs.stringify(params, { encodeValuesOnly: true })}`;

/**
 * `populate` for every level of a type, written out: components and dynamic zones (`on`) all the
 * way down, relations with their own media, components and (as `true`) relations, media,
 * morph relations and localizations as `true`.
 */
export function deepPopulate(models: { types: ModelSchema[]; components: Map<string, Record<string, any>> }, uid: string, relationDepth = 1): Record<string, unknown> {
  const type = models.types.find((t) => t.uid === uid);
  if (!type) return {};
  const populate = attributesPopulate(models, type.attributes, relationDepth);
  if (type.localized) populate.localizations = true;
  return populate;
}

function attributesPopulate(models: { types: ModelSchema[]; components: Map<string, Record<string, any>> }, attributes: Record<string, any>, relationDepth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const component = (name: string) => {
    const inner = attributesPopulate(models, models.components.get(name) ?? {}, relationDepth);
    return Object.keys(inner).length ? { populate: inner } : true;
  };
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.type === 'media') out[name] = true;
    else if (attribute.type === 'component') out[name] = component(attribute.component);
    else if (attribute.type === 'dynamiczone') out[name] = { on: Object.fromEntries(attribute.components.map((c: string) => [c, component(c)])) };
    else if (attribute.type === 'relation') {
      const target = models.types.find((t) => t.uid === attribute.target);
      if (!target || relationDepth === 0) out[name] = true;
      else {
        const inner = deepPopulate(models, target.uid, relationDepth - 1);
        out[name] = Object.keys(inner).length ? { populate: inner } : true;
      }
    }
  }
  return out;
}

/** A small PNG of one colour, made by sharp (Strapi's own image library makes the formats). */
export function png(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
}
