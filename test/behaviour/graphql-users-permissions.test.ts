/**
 * The users-permissions plugin over GraphQL on the emitted blog server: register, login,
 * me, changePassword, forgotPassword/resetPassword, emailConfirmation, the user CRUD
 * mutations, the role mutations, and the auth rate limit — with the REST routes' messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, writeUsersPermissionsConfig, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let admin: Record<string, string>;

async function gql(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}, on: RunningServer = server) {
  const res = await fetch(`${on.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as any };
}

async function data(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>, on?: RunningServer) {
  const res = await gql(query, variables, headers, on);
  if (res.status !== 200 || res.body.errors) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const register = (username: string, password = 'secret123', on?: RunningServer) =>
  data(
    'mutation ($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { id username email confirmed blocked role { id name type } } } }',
    { input: { username, email: `${username}@example.com`, password } },
    {},
    on,
  ).then((d) => d.register);

const login = (identifier: string, password: string) =>
  gql('mutation ($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt user { id username } } }', { input: { identifier, password } });

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  admin = bearer(await createApiToken(built.dir, { type: 'full-access' }));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('register, login, me', () => {
  it('register answers a JWT and the user; the public role needs no permission for it', async () => {
    const result = await register('ada');
    expect(result.jwt).toEqual(expect.any(String));
    // As on REST, the role is not shown to a caller that may not read roles.
    expect(result.user).toEqual({ id: expect.any(String), username: 'ada', email: 'ada@example.com', confirmed: true, blocked: false, role: null });
  });

  it('register refuses a taken username or email (Strapi’s message)', async () => {
    const res = await gql('mutation { register(input: { username: "ada", email: "other@example.com", password: "secret123" }) { jwt } }');
    expect(res.body.errors[0]).toMatchObject({ message: 'Email or Username are already taken', extensions: { code: 'STRAPI_APPLICATION_ERROR', error: { name: 'ApplicationError' } } });
  });

  it('login by username or email; a wrong password is BAD_USER_INPUT', async () => {
    await register('bea');
    for (const identifier of ['bea', 'bea@example.com']) {
      const res = await login(identifier, 'secret123');
      expect(res.body.data.login).toMatchObject({ jwt: expect.any(String), user: { username: 'bea' } });
    }
    const wrong = await login('bea', 'nope-nope');
    expect(wrong.body.errors[0]).toMatchObject({ message: 'Invalid identifier or password', extensions: { code: 'BAD_USER_INPUT' } });
    expect(wrong.body.data).toBeNull();
  });

  it('me: the JWT’s user; Forbidden access without one', async () => {
    const { jwt, user } = await register('cid');
    const me = await data('{ me { id username email confirmed blocked role { id name type } } }', undefined, bearer(jwt));
    expect(me.me).toMatchObject({ id: user.id, username: 'cid', email: 'cid@example.com', confirmed: true, blocked: false, role: { name: 'Authenticated', type: 'authenticated' } });
    const anonymous = await gql('{ me { id } }');
    expect(anonymous.body).toMatchObject({ data: { me: null }, errors: [{ message: 'Forbidden access', extensions: { code: 'FORBIDDEN' } }] });
  });

  it('auth mutations are rate-limited like the REST routes', async () => {
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 11; i++) codes.push((await login('rate-limited@example.com', 'whatever1')).body.errors?.[0]?.extensions?.code);
    expect(codes.slice(0, 10).every((code) => code === 'BAD_USER_INPUT')).toBe(true);
    expect(codes[10]).toBe('STRAPI_RATE_LIMIT_ERROR');
  });
});

describe('passwords', () => {
  it('changePassword needs the user and the current password; the new one then works', async () => {
    const { jwt } = await register('dora');
    const anonymous = await gql('mutation { changePassword(currentPassword: "secret123", password: "newsecret1", passwordConfirmation: "newsecret1") { jwt } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const wrong = await gql('mutation { changePassword(currentPassword: "wrong", password: "newsecret1", passwordConfirmation: "newsecret1") { jwt } }', undefined, bearer(jwt));
    expect(wrong.body.errors[0]).toMatchObject({ message: 'The provided current password is invalid', extensions: { code: 'BAD_USER_INPUT' } });
    const ok = await data('mutation { changePassword(currentPassword: "secret123", password: "newsecret1", passwordConfirmation: "newsecret1") { jwt user { username } } }', undefined, bearer(jwt));
    expect(ok.changePassword).toMatchObject({ jwt: expect.any(String), user: { username: 'dora' } });
    expect((await login('dora', 'newsecret1')).body.data.login.user.username).toBe('dora');
  });

  it('forgotPassword sends a code (through src/email.ts); resetPassword with it logs in', async () => {
    await register('eve');
    expect(await data('mutation { forgotPassword(email: "eve@example.com") { ok } }')).toEqual({ forgotPassword: { ok: true } });
    expect(await data('mutation { forgotPassword(email: "nobody@example.com") { ok } }')).toEqual({ forgotPassword: { ok: true } });
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      code = /\?code=([0-9a-f]+)/.exec(server.output().slice(server.output().lastIndexOf('eve@example.com')))?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    expect(code).toBeDefined();
    const bad = await gql('mutation { resetPassword(password: "resetsecret", passwordConfirmation: "resetsecret", code: "nope") { jwt } }');
    expect(bad.body.errors[0]).toMatchObject({ message: 'Incorrect code provided', extensions: { code: 'BAD_USER_INPUT' } });
    const reset = await data(`mutation { resetPassword(password: "resetsecret", passwordConfirmation: "resetsecret", code: "${code}") { jwt user { username } } }`);
    expect(reset.resetPassword).toMatchObject({ jwt: expect.any(String), user: { username: 'eve' } });
    expect((await login('eve', 'resetsecret')).body.data.login.user.username).toBe('eve');
  });
});

describe('user and role mutations', () => {
  it('create, update and delete users with their permissions; entity responses', async () => {
    const created = await data('mutation { createUsersPermissionsUser(data: { username: "fred", email: "Fred@Example.com", password: "secret123" }) { data { id attributes { username email role { data { attributes { type } } } } } } }', undefined, admin);
    const { id, attributes } = created.createUsersPermissionsUser.data;
    expect(attributes).toEqual({ username: 'fred', email: 'fred@example.com', role: { data: { attributes: { type: 'authenticated' } } } });
    const updated = await data(`mutation { updateUsersPermissionsUser(id: ${id}, data: { username: "freddy", blocked: true }) { data { attributes { username blocked } } } }`, undefined, admin);
    expect(updated.updateUsersPermissionsUser.data.attributes).toEqual({ username: 'freddy', blocked: true });
    const taken = await gql(`mutation { updateUsersPermissionsUser(id: ${id}, data: { username: "ada" }) { data { id } } }`, undefined, admin);
    expect(taken.body.errors[0]).toMatchObject({ message: 'Username already taken', extensions: { code: 'STRAPI_APPLICATION_ERROR' } });
    const listed = await data(`{ usersPermissionsUsers(filters: { username: { eq: "freddy" } }) { data { id } } }`, undefined, admin);
    expect(listed.usersPermissionsUsers.data).toEqual([{ id }]);
    const deleted = await data(`mutation { deleteUsersPermissionsUser(id: ${id}) { data { id attributes { username } } } }`, undefined, admin);
    expect(deleted.deleteUsersPermissionsUser.data).toEqual({ id, attributes: { username: 'freddy' } });
    const { jwt } = await register('gus');
    const forbidden = await gql('mutation { createUsersPermissionsUser(data: { username: "x", email: "x@example.com", password: "secret123" }) { data { id } } }', undefined, bearer(jwt));
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('roles come from permissions.json: the role mutations say so; queries list them', async () => {
    const res = await gql('mutation { createUsersPermissionsRole(data: { name: "New" }) { ok } }', undefined, admin);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringContaining('permissions.json'), extensions: { code: 'STRAPI_APPLICATION_ERROR' } });
    const roles = await data('{ usersPermissionsRoles(sort: "type") { data { attributes { type } } } }', undefined, admin);
    expect(roles.usersPermissionsRoles.data.map((r: any) => r.attributes.type)).toEqual(['authenticated', 'editor', 'public']);
  });
});

describe('emailConfirmation', () => {
  it('confirms the emailed code and logs the user in; an unknown code is BAD_USER_INPUT', async () => {
    await server.stop();
    await writeUsersPermissionsConfig(built.dir, { advanced: { email_confirmation: true } });
    server = await startServer(built.dir);
    const registered = await register('hana');
    expect(registered).toMatchObject({ jwt: null, user: { username: 'hana', confirmed: false } });
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      code = /confirmation=([0-9a-f]+)/.exec(server.output())?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    expect(code).toBeDefined();
    const bad = await gql('mutation { emailConfirmation(confirmation: "nope") { jwt } }');
    expect(bad.body.errors[0]).toMatchObject({ message: 'Invalid token', extensions: { code: 'BAD_USER_INPUT' } });
    const confirmed = await data(`mutation { emailConfirmation(confirmation: "${code}") { jwt user { username confirmed } } }`);
    expect(confirmed.emailConfirmation).toMatchObject({ jwt: expect.any(String), user: { username: 'hana', confirmed: true } });
    expect((await login('hana', 'secret123')).body.data.login.user.username).toBe('hana');
  });
});
