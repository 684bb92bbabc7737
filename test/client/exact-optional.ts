/**
 * Type-level tests of the typed client under a frontend's strictest options
 * (`exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`): test/generator/client.test.ts
 * compiles it with them against a freshly emitted blog client (it rewrites the import below).
 */
import { createClient } from '../../out/client/dist/index.js';

declare const env: { API_TOKEN?: string; API_URL?: string };

// An environment variable may be missing: `token` and `prefix` take `string | undefined`.
const api = createClient({ url: env.API_URL ?? 'http://localhost:1337', token: env.API_TOKEN, prefix: env.API_URL && '/api' });

export async function register() {
  const answer = await api.auth.register({ username: 'ada', email: 'ada@example.com', password: 'Secret123!' });
  // Without email confirmation the answer has a JWT; `answer.jwt` narrows.
  if (answer.jwt) {
    const jwt: string = answer.jwt;
    api.setToken(jwt);
  }
  return answer.user.username;
}
