/**
 * A generic seeder driven by a project's schemas (issue 26's round trip on real projects): writes
 * through a Strapi 4 REST API, with a full-access API token, a few entries of every collection
 * type with every attribute filled by its type (strings within their length and regex, numbers
 * within min/max, enums, json, dates, times, media uploaded first, components and dynamic zones
 * filled a few levels deep), then relations connected to other created entries (in components
 * too) in a second pass, some drafts, users, localizations of localized entries, and every
 * single type set. What Strapi refuses (a 4xx) is retried without the attributes it names and
 * recorded as a note: the project's own rules decide, not this client.
 */
import type { ModelSchema } from '../import/recorder/app.js';
import { png, type Auth, type StrapiClient } from '../import/recorder/client.js';

type Attr = Record<string, any>;
export interface Models { types: ModelSchema[]; components: Map<string, Record<string, any>>; user?: Record<string, any> }

export interface SeedResult {
  /** Created entry ids per type uid (collection types), in creation order. */
  entries: Map<string, number[]>;
  /** Entries and single types written. */
  written: number;
  users: { username: string; email: string; password: string; id: number; jwt: string }[];
  files: number;
  notes: string[];
}

const entriesPerType = 3;

/** A value of a string attribute that passes its regex (tried on a few shapes) and length limits. */
function stringValue(a: Attr, base: string): string | undefined {
  if (a.regex) {
    const n = base.replace(/\D/g, '').slice(-4) || '1';
    const candidates = [base.replace(/\s+/g, '-'), `value${n}`, `${1000000000 + Number(n)}`, `+1${2000000000 + Number(n)}`, `+33612${String(345670 + Number(n)).padStart(6, '0')}`, `0${600000000 + Number(n)}`, `v${n}@example.com`, `https://example.com/${n}`, `#${(0x100000 + Number(n)).toString(16).slice(-6)}`, `V${n}`, `v-${n}`];
    try {
      const re = new RegExp(a.regex);
      return candidates.find((c) => re.test(c));
    } catch {
      return undefined;
    }
  }
  let s = base;
  if (a.minLength && s.length < a.minLength) s = s.padEnd(a.minLength, '.');
  if (a.maxLength && s.length > a.maxLength) s = s.slice(0, a.maxLength);
  return s;
}

function numberValue(a: Attr, i: number, integer: boolean): number {
  let v = integer ? 3 + i * 7 : 2.5 + i * 1.25;
  if (typeof a.min === 'number' && v < a.min) v = a.min + i;
  if (typeof a.max === 'number' && v > a.max) v = Math.max(a.min ?? a.max, a.max - i);
  return integer ? Math.round(v) : v;
}

const pad = (n: number) => String(n).padStart(2, '0');

export class GenericSeeder {
  private counter = 0;
  private images: number[] = [];
  private pdf?: number;
  readonly result: SeedResult = { entries: new Map(), written: 0, users: [], files: 0, notes: [] };

  constructor(private client: StrapiClient, private models: Models, private full: Auth, private locales: string[]) {}

  private note(text: string) {
    if (this.result.notes.length < 40) this.result.notes.push(text.slice(0, 400));
  }

  /** A value for one attribute of entry `i`, or undefined to leave it out. */
  private value(name: string, a: Attr, i: number, depth: number, relations: boolean): unknown {
    const n = ++this.counter;
    switch (a.type) {
      case 'string': case 'text':
        return stringValue(a, a.unique ? `${name} ${i} #${n}` : `${name} ${i}`);
      case 'richtext':
        return stringValue(a, `## ${name} ${i}\n\nSome **rich** text, entry ${i}.`);
      case 'email': return `${name.toLowerCase().replace(/[^a-z0-9]/g, '')}${n}@example.com`;
      case 'uid': return stringValue({ ...a, regex: a.options?.regex ?? a.regex }, `${name}-${i}-${n}`.toLowerCase().replace(/[^a-z0-9-_.~]/g, '-'));
      case 'password': return undefined;
      case 'integer': return numberValue(a, i, true);
      case 'biginteger': return String(1234567890123 + i);
      case 'float': return numberValue(a, i, false);
      case 'decimal': return numberValue(a, i, false) + 0.5;
      case 'boolean': return i % 2 === 0;
      case 'date': return `2024-${pad(1 + i)}-${pad(10 + i)}`;
      case 'time': return `${pad(9 + i)}:${pad(15 + i)}:30.000`;
      case 'datetime': case 'timestamp': return `2024-${pad(2 + i)}-0${1 + i}T10:2${i}:30.000Z`;
      case 'json': return { entry: i, list: [1, 'two', null], nested: { ok: true } };
      case 'blocks': return [{ type: 'paragraph', children: [{ type: 'text', text: `${name} ${i}` }] }];
      case 'enumeration': return a.enum?.length ? a.enum[i % a.enum.length] : undefined;
      case 'media': {
        const types: string[] | undefined = a.allowedTypes;
        const imagesOk = !types?.length || types.includes('images');
        const files = imagesOk ? this.images : this.pdf !== undefined && types!.includes('files') ? [this.pdf] : [];
        if (!files.length) return undefined;
        return a.multiple ? files.slice(0, 2) : files[i % files.length];
      }
      case 'relation': return relations ? this.relationValue(a, i) : undefined;
      case 'component': {
        if (depth > 3) return undefined;
        const one = () => this.fill(this.models.components.get(a.component) ?? {}, i, depth + 1, relations);
        if (!a.repeatable) return one();
        const count = Math.max(a.min ?? 0, Math.min(2, a.max ?? 2));
        return Array.from({ length: count }, one);
      }
      case 'dynamiczone': {
        if (depth > 3) return undefined;
        const list: string[] = a.components ?? [];
        const count = Math.max(a.min ?? 0, Math.min(3, list.length, a.max ?? 3));
        return Array.from({ length: count }, (_, k) => {
          const uid = list[(i + k) % list.length]!;
          return { __component: uid, ...this.fill(this.models.components.get(uid) ?? {}, i, depth + 1, relations) };
        });
      }
      default: return undefined;
    }
  }

  private relationValue(a: Attr, i: number): unknown {
    if (!a.target || a.relation?.startsWith('morph')) return undefined;
    const ids = a.target === 'plugin::users-permissions.user' ? this.result.users.map((u) => u.id) : this.result.entries.get(a.target) ?? [];
    if (!ids.length) return undefined;
    const many = /ToMany$/.test(a.relation ?? '') || a.relation === 'manyWay';
    // A one-way oneToOne/oneToMany's targets end up shared by two owners, as Strapi lets them
    // be (it moves targets of two-way ones only), and contentgen keeps them so (projects.md).
    if (!many) return ids[(i + 1) % ids.length];
    // Two targets in an order that is not the ids' order, so the stored order shows.
    return ids.length > 1 ? [ids[(i + 1) % ids.length], ids[i % ids.length]] : [ids[0]];
  }

  /** Every attribute of `attributes` filled; relations only when `relations` (the second pass). */
  fill(attributes: Record<string, Attr>, i: number, depth: number, relations: boolean, skip: Set<string> = new Set()): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, a] of Object.entries(attributes)) {
      if (skip.has(name) || a.private && a.type === 'password') continue;
      const v = this.value(name, a, i, depth, relations);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }

  /** Relations of an entry and the components holding some (components are replaced on update). */
  private relationsOf(attributes: Record<string, Attr>, i: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, a] of Object.entries(attributes)) {
      if (a.type === 'relation' && !a.mappedBy) {
        const v = this.relationValue(a, i);
        if (v !== undefined) out[name] = v;
      } else if ((a.type === 'component' || a.type === 'dynamiczone') && this.holdsRelation(a)) {
        const v = this.value(name, a, i, 0, true);
        if (v !== undefined) out[name] = v;
      }
    }
    return out;
  }

  private holdsRelation(a: Attr, seen = new Set<string>()): boolean {
    const uids: string[] = a.type === 'component' ? [a.component] : a.components ?? [];
    return uids.some((uid) => {
      if (seen.has(uid)) return false;
      seen.add(uid);
      return Object.values(this.models.components.get(uid) ?? {}).some((c: Attr) => c.type === 'relation' || ((c.type === 'component' || c.type === 'dynamiczone') && this.holdsRelation(c, seen)));
    });
  }

  /**
   * Sends a write; on a 400 naming attributes (`details.errors[].path`), retries without them
   * (at most four times). Returns the answer's `data`, or undefined.
   */
  private async write(method: string, path: string, data: Record<string, unknown>, what: string, wrapped = true): Promise<any> {
    let body = { ...data };
    for (let attempt = 0; attempt < 5; attempt++) {
      const { status, json } = await this.client.request(method, path, this.full, wrapped ? { data: body } : body);
      if (status >= 200 && status < 300) return json?.data ?? json;
      const paths: string[] = (json?.error?.details?.errors ?? []).map((e: { path?: string[] }) => e.path?.[0]).filter((p: unknown): p is string => typeof p === 'string');
      const message = json?.error?.message ?? JSON.stringify(json).slice(0, 200);
      const dropped = paths.filter((p) => p in body);
      if (status !== 400 || !dropped.length) {
        this.note(`${what}: ${status} ${message}`);
        return undefined;
      }
      this.note(`${what}: ${message} (left out: ${dropped.join(', ')})`);
      body = Object.fromEntries(Object.entries(body).filter(([k]) => !dropped.includes(k)));
    }
    return undefined;
  }

  async uploadFiles(): Promise<void> {
    const images = [
      { name: 'red square.png', type: 'image/png', data: await png(300, 300, [200, 40, 40]) },
      { name: 'blue-wide.png', type: 'image/png', data: await png(640, 240, [30, 60, 200]) },
    ];
    for (const file of images) {
      const [created] = await this.client.upload(this.full, [file], { fileInfo: JSON.stringify({ alternativeText: `alt of ${file.name}`, caption: `caption ${file.name}` }) });
      this.images.push(created.id);
    }
    const [doc] = await this.client.upload(this.full, [{ name: 'notes.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4\n% a small file\n') }]);
    this.pdf = doc.id;
    this.result.files = 3;
  }

  async createUsers(): Promise<void> {
    const roles = (await this.client.request('GET', '/api/users-permissions/roles', this.full)).json?.roles ?? [];
    const role = roles.find((r: { type: string }) => r.type === 'authenticated')?.id;
    for (const username of ['alice', 'bob']) {
      const password = `${username[0]!.toUpperCase()}${username.slice(1)}Pass123`;
      const extra = this.fill(this.models.user ?? {}, 0, 1, false, new Set(['username', 'email', 'password', 'provider', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role']));
      const { status, json } = await this.client.request('POST', '/api/users', this.full, { username, email: `${username}@example.com`, password, confirmed: true, role, ...extra });
      if (status !== 201 && status !== 200) {
        this.note(`user ${username}: ${status} ${JSON.stringify(json?.error ?? json).slice(0, 200)}`);
        continue;
      }
      const login = await this.client.request('POST', '/api/auth/local', { kind: 'public' }, { identifier: username, password });
      this.result.users.push({ username, email: `${username}@example.com`, password, id: json.id, jwt: login.json?.jwt ?? '' });
    }
  }

  async seed(): Promise<SeedResult> {
    await this.uploadFiles();
    await this.createUsers();
    const collections = this.models.types.filter((t) => t.kind === 'collectionType');
    // Pass 1: entries without relations; the last of each draft-and-publish type is a draft.
    for (const type of collections) {
      const ids: number[] = [];
      for (let i = 0; i < entriesPerType; i++) {
        const data = this.fill(type.attributes, i, 0, false);
        if (type.draftAndPublish && i === entriesPerType - 1) data.publishedAt = null;
        const created = await this.write('POST', `/api/${type.pluralName}`, data, `create ${type.uid} #${i}`);
        if (created?.id !== undefined) {
          ids.push(created.id);
          this.result.written++;
        }
      }
      this.result.entries.set(type.uid, ids);
    }
    // Pass 2: relations (and the components holding some) connected to entries of pass 1.
    for (const type of collections) {
      const ids = this.result.entries.get(type.uid) ?? [];
      for (const [i, id] of ids.entries()) {
        const data = this.relationsOf(type.attributes, i);
        if (Object.keys(data).length) await this.write('PUT', `/api/${type.pluralName}/${id}`, data, `relations of ${type.uid} ${id}`);
      }
    }
    // Localizations: the first entry of each localized type in every other locale.
    for (const type of collections.filter((t) => t.localized)) {
      const first = this.result.entries.get(type.uid)?.[0];
      if (first === undefined) continue;
      for (const locale of this.locales.slice(1)) {
        const data = { ...this.fill(type.attributes, 1, 0, true), locale };
        // Strapi 4's localizations route takes the fields unwrapped (no `data`).
        const created = await this.write('POST', `/api/${type.pluralName}/${first}/localizations`, data, `localization ${locale} of ${type.uid} ${first}`, false);
        if (created?.id !== undefined) this.result.written++;
      }
    }
    for (const type of this.models.types.filter((t) => t.kind === 'singleType')) {
      const written = await this.write('PUT', `/api/${type.singularName}`, this.fill(type.attributes, 0, 0, true), `set ${type.uid}`);
      if (written) this.result.written++;
      // Other locales: Strapi 4 refuses a PUT in a locale it does not hold yet (alreadyExists);
      // its localizations route creates them, fields unwrapped.
      for (const [k, locale] of (type.localized && written ? this.locales : []).entries()) {
        if (k === 0) continue;
        const created = await this.write('POST', `/api/${type.singularName}/localizations`, { ...this.fill(type.attributes, k, 0, true), locale }, `localization ${locale} of ${type.uid}`, false);
        if (created) this.result.written++;
      }
    }
    return this.result;
  }
}
