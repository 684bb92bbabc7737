/**
 * Password hashing (bcrypt, 10 rounds like Strapi's default) and comparison that takes the
 * same time whether or not there is a stored hash to compare with: with no user, the
 * password is compared with a dummy hash of the same cost, so login timing does not reveal
 * which identifiers exist.
 */
import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';

export const passwordRounds = 10;

/** bcrypt reads at most 72 bytes; Strapi refuses longer passwords with this message. */
export const passwordMaxBytes = 72;
export const passwordTooLongMessage = 'Password must be less than 73 bytes';

export class Passwords {
  readonly #dummy: Promise<string>;

  constructor(readonly rounds: number = passwordRounds) {
    this.#dummy = bcrypt.hash(randomBytes(16).toString('hex'), rounds);
  }

  hash(plain: string): Promise<string> {
    return bcrypt.hash(plain, this.rounds);
  }

  /** Whether `plain` matches `hash`; with no hash, does the same work and answers false. */
  async verify(plain: string, hash: string | null | undefined): Promise<boolean> {
    if (typeof hash !== 'string' || hash === '') {
      await bcrypt.compare(plain, await this.#dummy);
      return false;
    }
    try {
      return await bcrypt.compare(plain, hash);
    } catch {
      return false; // a stored value that is not a bcrypt hash matches nothing
    }
  }
}

export function isTooLong(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') > passwordMaxBytes;
}
