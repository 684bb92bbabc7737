/**
 * Users' JWTs, as Strapi's users-permissions plugin issues them: HS256, payload `{ id }`,
 * `expiresIn` from the config (default 30 days). Verification accepts HS256 only, so a token
 * with `alg: none` or another algorithm is refused even when signed with the right secret.
 */
import jwt from 'jsonwebtoken';

export class JwtService {
  readonly #secret: string;
  readonly #expiresIn: string | number;

  constructor(secret: string, expiresIn: string | number) {
    this.#secret = secret;
    this.#expiresIn = expiresIn;
    // Fails at start, not at the first login, when expiresIn is not a timespan.
    try {
      this.issue(1);
    } catch (err) {
      throw new Error(`config plugins['users-permissions'].jwt.expiresIn: ${(err as Error).message}`);
    }
  }

  issue(userId: number): string {
    return jwt.sign({ id: userId }, this.#secret, {
      algorithm: 'HS256',
      expiresIn: this.#expiresIn as jwt.SignOptions['expiresIn'],
    });
  }

  /**
   * The payload's user id: undefined when the token carries none, 0 when it carries one that
   * can name no user. Throws for a token that is malformed, tampered with, expired, signed
   * with another secret or with another algorithm.
   */
  verify(token: string): number | undefined {
    const payload = jwt.verify(token, this.#secret, { algorithms: ['HS256'] });
    if (typeof payload !== 'object' || payload === null) return undefined;
    const id = (payload as { id?: unknown }).id;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
    if (typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id)) return Number(id);
    return id === undefined ? undefined : 0;
  }
}
