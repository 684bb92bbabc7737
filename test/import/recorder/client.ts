/**
 * Talking to the Strapi being recorded: JSON requests that fail loudly, multipart uploads, a
 * recorder of answers, deep `populate` written out level by level, and small generated PNGs.
 */
import { deflateSync } from 'node:zlib';
import qs from 'qs';
import type { ModelSchema } from './app.js';

export type Auth = { kind: 'public' } | { kind: 'token'; name: string; key: string } | { kind: 'user'; name: string; jwt: string };

export const publicAuth: Auth = { kind: 'public' };

export interface RecordedAnswer {
  name: string;
  method: string;
  path: string;
  /** `public`, `token:<token type>` or `user:<username>`: what the request carried. */
  auth: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

function headers(auth: Auth): Record<string, string> {
  if (auth.kind === 'token') return { authorization: `Bearer ${auth.key}` };
  if (auth.kind === 'user') return { authorization: `Bearer ${auth.jwt}` };
  return {};
}

const authLabel = (auth: Auth) => (auth.kind === 'public' ? 'public' : auth.kind === 'token' ? `token:${auth.name}` : `user:${auth.name}`);

export class StrapiClient {
  readonly answers: RecordedAnswer[] = [];

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, auth: Auth, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...headers(auth), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null };
  }

  /** A write or read of the fill: anything but 2xx stops the recording. */
  async send(method: string, path: string, auth: Auth, body?: unknown): Promise<any> {
    const { status, json } = await this.request(method, path, auth, body);
    if (status < 200 || status > 299) throw new Error(`${method} ${path} → ${status}: ${JSON.stringify(json)}\nbody: ${JSON.stringify(body)}`);
    return json;
  }

  /** A request whose answer goes into answers.<dialect>.json, whatever its status. */
  async record(name: string, method: string, path: string, auth: Auth, body?: unknown): Promise<any> {
    const { status, json } = await this.request(method, path, auth, body);
    this.answers.push({ name, method, path, auth: authLabel(auth), ...(body === undefined ? {} : { body }), status, answer: json });
    return json;
  }

  async graphql(name: string, query: string, auth: Auth, variables: Record<string, unknown> = {}): Promise<any> {
    return this.record(name, 'POST', '/graphql', auth, { query, variables });
  }

  /** POST /api/upload (or ?id= to update one) with generated files and form fields. */
  async upload(auth: Auth, files: { name: string; type: string; data: Buffer }[], fields: Record<string, string> = {}, query = ''): Promise<any> {
    const form = new FormData();
    for (const file of files) form.append('files', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const response = await fetch(`${this.baseUrl}/api/upload${query}`, { method: 'POST', headers: headers(auth), body: form });
    const json = await response.json();
    if (!response.ok) throw new Error(`POST /api/upload${query} → ${response.status}: ${JSON.stringify(json)}`);
    return json;
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

/** A small RGB PNG, `width`×`height`, in two colour bands so thumbnails differ from originals. */
export function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) {
    const shade = y < height / 2 ? 1 : 0.5;
    const offset = y * row.length;
    raw[offset] = 0;
    for (let x = 0; x < width; x++) {
      raw[offset + 1 + x * 3] = Math.round(rgb[0] * shade);
      raw[offset + 2 + x * 3] = Math.round(rgb[1] * shade);
      raw[offset + 3 + x * 3] = Math.round(rgb[2] * shade);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
