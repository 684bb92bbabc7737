/**
 * Shapes real Strapi v4 projects have, that Strapi starts with (fixtures/real-shapes): they
 * build, start and serve REST and GraphQL as Strapi does.
 *
 *  - a component `merchant.home` and a single type `merchant-home` (GraphQL
 *    `ComponentMerchantHome` and `MerchantHome`; one TypeScript name each);
 *  - a type named `subscription`: an ordinary type, not GraphQL's subscription root;
 *  - a type named `package` (a reserved word in TypeScript);
 *  - `category.products` and `product.categories` inversedBy each other (Strapi's ecommerce
 *    template): one table, the one of the side Strapi reads last (product);
 *  - `article.author` and `article.editor` both inversedBy `writer.articles` (mappedBy
 *    author): each keeps its table, `writer.articles` reads the last one's (editor), as Strapi;
 *  - `package.subscribers` mappedBy an attribute the target lacks: no storage, always empty;
 *  - custom fields of known plugins and of customFields.json, stored as their types;
 *  - `blocks`, validated as Strapi does, JSON in GraphQL;
 *  - `populateCreatorFields`: `createdBy` / `updatedBy` populate as `{ data: null }`;
 *  - a relation to `admin::user` (`article.reviewer`): Strapi's Content API drops it from
 *    answers, populate and writes for every API caller, and refuses it in filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let anonymous: ReturnType<typeof client>;
let tokenHeaders: Record<string, string>;

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const create = async (path: string, data: Record<string, unknown>) => (await ok(api.post(`/api/${path}`, { data }))).data.id as number;
const ids = (relation: any) => (Array.isArray(relation.data) ? relation.data.map((e: any) => e.id) : relation.data?.id ?? null);

async function gql(query: string, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return res.json();
}

beforeAll(async () => {
  built = await buildFixture('real-shapes');
  server = await startServer(built.dir);
  tokenHeaders = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  api = client(server.url, tokenHeaders);
  anonymous = client(server.url);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('a component and a content type with one name', () => {
  it('serves the single type merchant-home with its merchant.home component, in REST and GraphQL', async () => {
    await ok(api.put('/api/merchant-home', { data: { title: 'Welcome', accent: '#00aa00', hero: { headline: 'Hello', tone: 'loud' } } }));
    const rest = await ok(anonymous.get('/api/merchant-home?populate=hero'));
    expect(rest.data.attributes).toMatchObject({ title: 'Welcome', accent: '#00aa00', hero: { headline: 'Hello', tone: 'loud' } });
    const answer = await gql('{ merchantHome { data { attributes { title hero { __typename headline tone } } } } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.merchantHome.data.attributes).toEqual({ title: 'Welcome', hero: { __typename: 'ComponentMerchantHome', headline: 'Hello', tone: 'loud' } });
    const types = await gql('{ a: __type(name: "MerchantHome") { kind } b: __type(name: "ComponentMerchantHome") { kind } }');
    expect(types.data).toEqual({ a: { kind: 'OBJECT' }, b: { kind: 'OBJECT' } });
  });
});

describe('a content type named subscription', () => {
  it('is an ordinary type: public reads are allowed, and the schema has no subscription root', async () => {
    const pkg = await create('packages', { name: 'Gold' });
    const id = await create('subscriptions', { email: 'reader@example.com', package: pkg });
    const answer = await gql('{ subscriptions { data { id attributes { email package { data { id } } } } } __schema { subscriptionType { name } } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.__schema.subscriptionType).toBeNull();
    expect(answer.data.subscriptions.data).toContainEqual({ id: String(id), attributes: { email: 'reader@example.com', package: { data: { id: String(pkg) } } } });
    const one = await gql(`{ subscription(id: ${id}) { data { attributes { email } } } }`);
    expect(one).toEqual({ data: { subscription: { data: { attributes: { email: 'reader@example.com' } } } } });
    expect((await ok(anonymous.get(`/api/subscriptions/${id}?populate=package`))).data.attributes.package.data.id).toBe(pkg);
  });
});

describe('relations Strapi accepts', () => {
  it('category.products and product.categories inversedBy each other: one set of links, seen from both sides', async () => {
    const shoes = await create('categories', { name: 'Shoes' });
    const hats = await create('categories', { name: 'Hats' });
    const boot = await create('products', { name: 'Boot', categories: [hats, shoes] });
    const cap = await create('products', { name: 'Cap' });
    await ok(api.put(`/api/categories/${hats}`, { data: { products: { connect: [cap] } } }));
    expect(ids((await ok(anonymous.get(`/api/products/${boot}?populate=categories`))).data.attributes.categories)).toEqual([hats, shoes]);
    expect(ids((await ok(anonymous.get(`/api/categories/${hats}?populate=products`))).data.attributes.products)).toEqual([boot, cap]);
    expect(ids((await ok(anonymous.get(`/api/products/${cap}?populate=categories`))).data.attributes.categories)).toEqual([hats]);
    const answer = await gql(`{ category(id: ${shoes}) { data { attributes { products { data { id } } } } } }`);
    expect(answer.data.category.data.attributes.products.data).toEqual([{ id: String(boot) }]);
  });

  it('two relations inversedBy writer.articles: each keeps its links, writer.articles shows the last one (editor), as Strapi', async () => {
    const ann = await create('writers', { name: 'Ann' });
    const bob = await create('writers', { name: 'Bob' });
    const article = await create('articles', { title: 'Two hands', author: ann, editor: bob });
    const read = await ok(anonymous.get(`/api/articles/${article}?populate=author,editor`));
    expect([ids(read.data.attributes.author), ids(read.data.attributes.editor)]).toEqual([ann, bob]);
    expect(ids((await ok(anonymous.get(`/api/writers/${bob}?populate=articles`))).data.attributes.articles)).toEqual([article]);
    expect(ids((await ok(anonymous.get(`/api/writers/${ann}?populate=articles`))).data.attributes.articles)).toEqual([]);
    // Writing writer.articles writes the editor links (oneToMany: the article leaves Bob).
    await ok(api.put(`/api/writers/${ann}`, { data: { articles: [article] } }));
    const after = await ok(anonymous.get(`/api/articles/${article}?populate=author,editor`));
    expect([ids(after.data.attributes.author), ids(after.data.attributes.editor)]).toEqual([ann, ann]);
  });

  it('a mappedBy side the target does not map back: no storage, always empty, writes ignored', async () => {
    const subscription = await create('subscriptions', { email: 'x@example.com' });
    const pkg = await create('packages', { name: 'Silver', subscribers: [subscription] });
    expect((await ok(anonymous.get(`/api/packages/${pkg}?populate=subscribers`))).data.attributes.subscribers).toEqual({ data: [] });
    const answer = await gql(`{ package(id: ${pkg}) { data { attributes { name subscribers { data { id } } } } } }`);
    expect(answer).toEqual({ data: { package: { data: { attributes: { name: 'Silver', subscribers: { data: [] } } } } } });
    // Nothing to filter through (Strapi's query fails there): a 400, not a 500.
    expect((await anonymous.get('/api/packages?filters[subscribers][id]=1')).body.error).toMatchObject({ status: 400, message: 'Invalid parameter subscribers' });
  });
});

describe('custom fields', () => {
  it('store and answer the type their plugin field stores, with that type\'s rules', async () => {
    const data = { name: 'Lamp', color: '#FFAA00', description: '<p>Warm <b>light</b></p>', pickupPoint: { lat: 48.85, lng: 2.35 }, stars: 4 };
    const id = await create('products', data);
    expect((await ok(anonymous.get(`/api/products/${id}`))).data.attributes).toMatchObject(data);
    const bad = await api.post('/api/products', { data: { name: 'Bad', color: 'red', stars: 9 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors.map((e: any) => e.message)).toEqual([
      'color must match the following: "/^#[0-9A-Fa-f]{6}$/"',
      'stars must be less than or equal to 5',
    ]);
    const answer = await gql(`{ product(id: ${id}) { data { attributes { color stars pickupPoint description } } } }`);
    expect(answer.data.product.data.attributes).toEqual({ color: '#FFAA00', stars: 4, pickupPoint: { lat: 48.85, lng: 2.35 }, description: '<p>Warm <b>light</b></p>' });
  });
});

describe('blocks', () => {
  const body = [
    { type: 'heading', level: 2, children: [{ type: 'text', text: 'Title' }] },
    { type: 'paragraph', children: [{ type: 'text', text: 'Some ', bold: true }, { type: 'link', url: '/about', children: [{ type: 'text', text: 'link' }] }] },
    { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'one' }] }, { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'nested' }] }] }] },
    { type: 'code', syntax: 'ts', children: [{ type: 'text', text: 'let x = 1;' }] },
  ];

  it('round-trips a list of blocks in REST and GraphQL (JSON)', async () => {
    const id = await create('articles', { title: 'Blocks', body });
    expect((await ok(anonymous.get(`/api/articles/${id}`))).data.attributes.body).toEqual(body);
    const answer = await gql(`{ article(id: ${id}) { data { attributes { body } } } }`);
    expect(answer.data.article.data.attributes.body).toEqual(body);
  });

  it('refuses what Strapi refuses, with its messages', async () => {
    const notArray = await api.post('/api/articles', { data: { title: 'x', body: 'hello' } });
    expect(notArray.status).toBe(400);
    expect(notArray.body.error.message).toBe('body must be a `array` type, but the final value was: `"hello"`.');
    const wrong = await api.post('/api/articles', {
      data: {
        title: 'x',
        body: [
          { type: 'paragraph', children: [] },
          { type: 'heading', level: 7, children: [{ type: 'text', text: 'h' }] },
          { type: 'video' },
          { type: 'paragraph', children: [{ type: 'link', url: 'no url', children: [{ type: 'text', text: 'x' }] }] },
        ],
      },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.errors.map((e: any) => e.message)).toEqual([
      'Paragraph node children must have at least one Text or Link node',
      'body[1].level must be one of the following values: 1, 2, 3, 4, 5, 6',
      'Block node is of invalid type',
      'Please specify a valid link.',
    ]);
    expect((await ok(api.post('/api/articles', { data: { title: 'Empty', body: [] } }))).data.attributes.body).toEqual([]);
  });

  it('filters like json: $null and $notNull only', async () => {
    const none = await create('articles', { title: 'No body' });
    expect((await ok(anonymous.get('/api/articles?filters[body][$null]=true&fields[0]=title'))).data.map((e: any) => e.id)).toContain(none);
    expect((await anonymous.get('/api/articles?filters[body][$eq]=x')).body.error).toMatchObject({ status: 400, message: 'Invalid parameter body' });
  });
});

describe('populateCreatorFields', () => {
  it('populate=createdBy answers { data: null } for entries written through the API, and populate=* includes both', async () => {
    const id = await create('products', { name: 'Made by the API' });
    const one = await ok(anonymous.get(`/api/products/${id}?populate=createdBy&fields[0]=name`));
    expect(one.data.attributes).toEqual({ name: 'Made by the API', createdBy: { data: null } });
    const all = await ok(anonymous.get(`/api/products/${id}?populate=*&fields[0]=name`));
    expect(all.data.attributes).toMatchObject({ createdBy: { data: null }, updatedBy: { data: null } });
    // Without the option, creator fields stay private: nothing to populate.
    const category = await create('categories', { name: 'Plain' });
    expect((await ok(anonymous.get(`/api/categories/${category}?populate=createdBy&fields[0]=name`))).data.attributes).toEqual({ name: 'Plain' });
  });
});

describe('a relation to admin::user', () => {
  it('is never answered, populated or written, and filtering on it is refused as Strapi does', async () => {
    const created = await ok(api.post('/api/articles', { data: { title: 'Reviewed', reviewer: 1 } }));
    expect(created.data.attributes).not.toHaveProperty('reviewer');
    const id = created.data.id as number;
    for (const query of ['populate=*', 'populate[reviewer]=true', 'populate[0]=reviewer']) {
      const read = await ok(api.get(`/api/articles/${id}?${query}`));
      expect(read.data.attributes).not.toHaveProperty('reviewer');
      expect(read.data.attributes.title).toBe('Reviewed');
    }
    const filtered = await api.get('/api/articles?filters[reviewer][id][$eq]=1');
    expect(filtered.status).toBe(400);
    expect(filtered.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    const answer = await gql(`{ article(id: ${id}) { data { attributes { title } } } __type(name: "Article") { fields { name } } }`, tokenHeaders);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.__type.fields.map((f: { name: string }) => f.name)).not.toContain('reviewer');
  });
});
