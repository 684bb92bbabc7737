/**
 * Attribute names with letters outside ASCII (`año`, `descripción`: Zenn-Dev99/StrapiAlmonte's
 * libro and curso have `año`). Strapi 5.54.0 checks no attribute name at start and serves it
 * under its own name, its column lodash's snakeCase of it (`ano`, `descripcion`,
 * `ano_edicion`: `@strapi/database` metadata createAttribute). contentgen keeps an ASCII
 * Prisma field (`a_xf1_o`) mapped to that column. With the GraphQL plugin Strapi does not start
 * (graphql-js: "Names must only contain [_a-zA-Z0-9]"): contentgen leaves the field out of
 * GraphQL with a warning (fixtures/projects/strapi5-shapes, api::edition.edition). Inside a
 * component (JSON) the key is the name too, quoted in JSON paths (`$."año"`); a relation
 * (`autoría`) keeps Strapi's link table (`ediciones_autoria_links`) with an ASCII link model, as
 * a media field does (`imágenes`: `ediciones_imagenes_links`); a component or zone (`reseñas`,
 * `sección`) its JSON column (`resenas`, `seccion`) behind an ASCII Prisma field.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { fixturesDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let token: string;

beforeAll(async () => {
  built = await buildModels(path.join(fixturesDir, 'projects', 'strapi5-shapes'), 'non-ascii-names');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  api = client(server.url, bearer(token));
  for (const [nombre, año, descripción, añoEdición, páginas] of [
    ['Primera', 2001, 'la primera', '2001-a', 120],
    ['Segunda', 1999, 'la segunda', '1999-b', 300],
    ['Tercera', 2010, null, null, 80],
  ] as const) {
    const created = await api.post('/api/editions', { data: { nombre, año, descripción, añoEdición, detalle: { año: año + 1, páginas } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  }
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('an attribute named with letters outside ASCII', () => {
  it('is answered under its own name on /api and on the v5 mount', async () => {
    const v4 = await api.get('/api/editions?sort=id');
    expect(v4.status).toBe(200);
    expect(v4.body.data[0].attributes).toMatchObject({ nombre: 'Primera', año: 2001, descripción: 'la primera', añoEdición: '2001-a' });
    const v5 = await api.get('/v5/api/editions?sort=id');
    expect(v5.status).toBe(200);
    expect(v5.body.data[1]).toMatchObject({ nombre: 'Segunda', año: 1999, descripción: 'la segunda', añoEdición: '1999-b', documentId: expect.any(String) });
    const created = await api.post('/v5/api/editions', { data: { nombre: 'Cuarta', año: 2020 } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ nombre: 'Cuarta', año: 2020, descripción: null, añoEdición: null });
    const one = await api.get(`/v5/api/editions/${created.body.data.documentId}`);
    expect(one.body.data.año).toBe(2020);
    const updated = await api.put(`/v5/api/editions/${created.body.data.documentId}`, { data: { año: 2021, descripción: 'cambiada' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ año: 2021, descripción: 'cambiada' });
    expect((await api.del(`/v5/api/editions/${created.body.data.documentId}`)).status).toBe(204);
  });

  it('filters, sorts and selects by its own name', async () => {
    const eq = await api.get(`/api/editions?filters[${encodeURIComponent('año')}][$eq]=1999`);
    expect(eq.body.data.map((e: any) => e.attributes.nombre)).toEqual(['Segunda']);
    const gt = await api.get(`/v5/api/editions?filters[año][$gt]=2000&sort=año:desc`);
    expect(gt.body.data.map((e: any) => e.nombre)).toEqual(['Tercera', 'Primera']);
    const contains = await api.get(`/v5/api/editions?filters[descripción][$contains]=segunda`);
    expect(contains.body.data.map((e: any) => e.nombre)).toEqual(['Segunda']);
    const isNull = await api.get(`/v5/api/editions?filters[añoEdición][$null]=true`);
    expect(isNull.body.data.map((e: any) => e.nombre)).toEqual(['Tercera']);
    const sorted = await api.get('/api/editions?sort[0]=año:asc');
    expect(sorted.body.data.map((e: any) => e.attributes.año)).toEqual([1999, 2001, 2010]);
    const fields = await api.get('/v5/api/editions?fields[0]=año&sort=año');
    expect(fields.body.data[0]).toEqual({ id: expect.any(Number), documentId: expect.any(String), año: 1999 });
    const v4fields = await api.get('/api/editions?fields[0]=año&fields[1]=descripción&sort=id');
    expect(v4fields.status, JSON.stringify(v4fields.body)).toBe(200);
    expect(v4fields.body.data[0].attributes).toEqual({ año: 2001, descripción: 'la primera' });
  });

  it('in a component: answered, populated, filtered and sorted under its own name', async () => {
    const v4 = await api.get('/api/editions?populate=detalle&sort=id');
    expect(v4.body.data[0].attributes.detalle).toEqual({ id: expect.any(Number), año: 2002, páginas: 120 });
    const v5 = await api.get('/v5/api/editions?populate=*&sort=id');
    expect(v5.body.data[1].detalle).toEqual({ id: expect.any(Number), año: 2000, páginas: 300 });
    const filtered = await api.get('/v5/api/editions?filters[detalle][páginas][$lt]=200&sort=id');
    expect(filtered.body.data.map((e: any) => e.nombre)).toEqual(['Primera', 'Tercera']);
    const eq = await api.get('/api/editions?filters[detalle][año][$eq]=2000');
    expect(eq.body.data.map((e: any) => e.attributes.nombre)).toEqual(['Segunda']);
    const sorted = await api.get('/v5/api/editions?sort=detalle.páginas:desc');
    expect(sorted.status, JSON.stringify(sorted.body)).toBe(200);
    expect(sorted.body.data.map((e: any) => e.nombre)).toEqual(['Segunda', 'Primera', 'Tercera']);
    const fields = await api.get('/v5/api/editions?populate[detalle][fields][0]=año&sort=id');
    expect(fields.body.data[2].detalle).toEqual({ id: expect.any(Number), año: 2011 });
  });

  it('on a localized draft & publish type: drafts, publishing, and a shared attribute copied to every locale', async () => {
    const created = await api.post('/v5/api/obras', { data: { título: 'Cien años', año: 1967 } });
    expect(created.status).toBe(201);
    const D = created.body.data.documentId;
    expect(created.body.data).toMatchObject({ título: 'Cien años', año: 1967, publishedAt: expect.any(String), locale: 'en' });
    // a draft of the published document (its draft row), then published again
    const drafted = await api.put(`/v5/api/obras/${D}?status=draft`, { data: { año: 1966 } });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(200);
    expect((await api.get(`/v5/api/obras/${D}?status=draft`)).body.data.año).toBe(1966);
    expect((await api.get(`/v5/api/obras/${D}`)).body.data.año).toBe(1967);
    const es = await api.put(`/v5/api/obras/${D}?locale=es&status=published`, { data: { título: 'Cien años de soledad' } });
    expect(es.status, JSON.stringify(es.body)).toBe(200);
    expect(es.body.data).toMatchObject({ título: 'Cien años de soledad', año: 1967, locale: 'es' });
    const edited = await api.put(`/v5/api/obras/${D}?status=published`, { data: { año: 1968 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const esNow = await api.get(`/v5/api/obras/${D}?locale=es`);
    expect(esNow.body.data).toMatchObject({ título: 'Cien años de soledad', año: 1968 });
    const v4 = await api.get('/api/obras?locale=all&sort=id&fields[0]=año&fields[1]=título');
    expect(v4.body.data.map((e: any) => e.attributes)).toEqual([
      { año: 1968, título: 'Cien años' },
      { año: 1968, título: 'Cien años de soledad' },
    ]);
  });

  it('a relation named outside ASCII: written, populated both ways and filtered under its own name', async () => {
    const obra = await api.post('/v5/api/obras', { data: { título: 'Rayuela', año: 1963 } });
    const segunda = (await api.get('/v5/api/editions?filters[nombre][$eq]=Segunda')).body.data[0];
    const linked = await api.put(`/v5/api/editions/${segunda.documentId}`, { data: { autoría: { connect: [obra.body.data.documentId] } } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const withAuthor = await api.get(`/v5/api/editions/${segunda.documentId}?populate=autoría`);
    expect(withAuthor.body.data.autoría).toMatchObject({ título: 'Rayuela', año: 1963 });
    const back = await api.get(`/v5/api/obras/${obra.body.data.documentId}?populate[ediciónes][fields][0]=año`);
    expect(back.body.data.ediciónes).toEqual([{ id: expect.any(Number), documentId: segunda.documentId, año: 1999 }]);
    const filtered = await api.get('/api/editions?filters[autoría][título][$eq]=Rayuela&populate=autoría');
    expect(filtered.body.data.map((e: any) => [e.attributes.nombre, e.attributes.autoría.data.attributes.título])).toEqual([['Segunda', 'Rayuela']]);
  });

  it('media, a repeatable component and a dynamic zone named outside ASCII: written, populated, filtered and updated under their own names', async () => {
    const upload = async (name: string, extra: Record<string, string> = {}) => {
      const form = new FormData();
      form.append('files', new Blob([Buffer.from(name)], { type: 'text/plain' }), name);
      for (const [key, value] of Object.entries(extra)) form.append(key, value);
      const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: bearer(token) });
      expect(res.status, name).toBe(200);
      return ((await res.json()) as any[])[0];
    };
    const file = await upload('hola.txt');
    const created = await api.post('/v5/api/editions', {
      data: {
        nombre: 'Quinta',
        año: 2024,
        imágenes: [file.id],
        reseñas: [{ año: 2025, páginas: 10 }, { año: 2026, páginas: 20 }],
        sección: [{ __component: 'blocks.text', body: 'hola' }, { __component: 'ediciones.detalle', páginas: 7 }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const D = created.body.data.documentId;
    const v5 = await api.get(`/v5/api/editions/${D}?populate=*`);
    expect(v5.status, JSON.stringify(v5.body)).toBe(200);
    expect(v5.body.data.imágenes).toEqual([expect.objectContaining({ id: file.id, name: 'hola.txt' })]);
    expect(v5.body.data.reseñas).toEqual([
      { id: expect.any(Number), año: 2025, páginas: 10 },
      { id: expect.any(Number), año: 2026, páginas: 20 },
    ]);
    expect(v5.body.data.sección).toMatchObject([{ __component: 'blocks.text', body: 'hola' }, { __component: 'ediciones.detalle', páginas: 7 }]);
    const v4 = await api.get(`/api/editions?filters[nombre][$eq]=Quinta&populate[0]=${encodeURIComponent('imágenes')}&populate[1]=reseñas&populate[2]=sección`);
    expect(v4.status, JSON.stringify(v4.body)).toBe(200);
    const attributes = v4.body.data[0].attributes;
    expect(attributes.imágenes.data.map((f: any) => f.attributes.name)).toEqual(['hola.txt']);
    expect(attributes.reseñas.map((r: any) => r.páginas)).toEqual([10, 20]);
    expect(attributes.sección.map((z: any) => z.__component)).toEqual(['blocks.text', 'ediciones.detalle']);
    // filtered through the component's and the media's fields
    expect((await api.get('/v5/api/editions?filters[reseñas][páginas][$eq]=20')).body.data.map((e: any) => e.nombre)).toEqual(['Quinta']);
    expect((await api.get('/api/editions?filters[reseñas][año][$gt]=2025')).body.data.map((e: any) => e.attributes.nombre)).toEqual(['Quinta']);
    expect((await api.get('/v5/api/editions?filters[imágenes][name][$eq]=hola.txt')).body.data.map((e: any) => e.nombre)).toEqual(['Quinta']);
    // updated: an instance kept by id, the zone replaced, the media emptied
    const first = v5.body.data.reseñas[0].id;
    const updated = await api.put(`/v5/api/editions/${D}?populate=*`, { data: { reseñas: [{ id: first, año: 2030, páginas: 11 }], sección: [{ __component: 'blocks.text', body: 'adiós' }], imágenes: [] } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.reseñas).toEqual([{ id: first, año: 2030, páginas: 11 }]);
    expect(updated.body.data.sección).toMatchObject([{ __component: 'blocks.text', body: 'adiós' }]);
    expect(updated.body.data.imágenes).toEqual([]);
    // an instance the document does not hold: Strapi 5's refusal, under the field's own name
    const foreign = await api.put(`/v5/api/editions/${D}`, { data: { reseñas: [{ id: 999999, páginas: 1 }] } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe('Some of the provided components in reseñas are not related to the entity');
    // a file uploaded to the entry's media field
    await upload('adjunto.txt', { ref: 'api::edition.edition', refId: String(created.body.data.id), field: 'imágenes' });
    const attached = await api.get(`/api/editions/${created.body.data.id}?populate=${encodeURIComponent('imágenes')}`);
    expect(attached.body.data.attributes.imágenes.data.map((f: any) => f.attributes.name)).toEqual(['adjunto.txt']);
    expect((await api.del(`/v5/api/editions/${D}`)).status).toBe(204);
  });

  it('a morphToMany named outside ASCII: written with {__type, id} and populated under its own name', async () => {
    const obra = await api.post('/api/obras', { data: { título: 'Ficciones', año: 1944 } });
    expect(obra.status, JSON.stringify(obra.body)).toBe(200);
    const created = await api.post('/api/editions', { data: { nombre: 'Sexta', año: 1956, vínculos: [{ __type: 'api::obra.obra', id: obra.body.data.id }] } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const read = await api.get(`/api/editions/${created.body.data.id}?populate=${encodeURIComponent('vínculos')}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.data.attributes.vínculos).toEqual([expect.objectContaining({ __type: 'api::obra.obra', id: obra.body.data.id, título: 'Ficciones' })]);
    expect((await api.del(`/api/editions/${created.body.data.id}`)).status).toBe(200);
  });

  it('is validated under its own name', async () => {
    const missing = await api.post('/v5/api/editions', { data: { nombre: 'Sin año' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.errors[0].path).toEqual(['año']);
    const duplicate = await api.post('/v5/api/editions', { data: { nombre: 'Repetida', año: 2000, añoEdición: '2001-a' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error.details.errors[0]).toMatchObject({ path: ['añoEdición'], message: 'This attribute must be unique' });
  });

  it("is stored in Strapi's column (snakeCase: accents go) and left out of GraphQL", async () => {
    const migrations = path.join(built.dir, 'prisma', 'migrations');
    const sql = readdirSync(migrations, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.sql'))
      .map((f) => readFileSync(path.join(migrations, f), 'utf8'))
      .join('\n');
    expect(sql).toMatch(/["`]ano["`]/);
    expect(sql).toMatch(/["`]descripcion["`]/);
    expect(sql).toMatch(/["`]ano_edicion["`]/);
    const res = await fetch(`${server.url}/v5/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify({ query: '{ editions(sort: "id") { nombre } }' }) });
    const body: any = await res.json();
    expect(body.data.editions.map((e: any) => e.nombre)).toEqual(['Primera', 'Segunda', 'Tercera']);
  });
});
