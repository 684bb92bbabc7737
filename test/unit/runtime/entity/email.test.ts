/**
 * The email check must accept exactly what yup 0.32's `string().email()` regex accepts, without
 * that regex's exponential backtracking.
 */
import { describe, expect, it } from 'vitest';
import { isValidEmail } from '../../../../templates/runtime/entity/email.js';

// yup 0.32 src/string.ts `rEmail`, verbatim: the reference the rewrite is compared against.
// eslint-disable-next-line no-useless-escape
const yupEmail = /^((([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_`{\|}~]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])+(\.([a-z]|\d|[!#\$%&'\*\+\-\/=\?\^_`{\|}~]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])+)*)|((\x22)((((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(([\x01-\x08\x0b\x0c\x0e-\x1f\x7f]|\x21|[\x23-\x5b]|[\x5d-\x7e]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(\\([\x01-\x09\x0b\x0c\x0d-\x7f]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]))))*(((\x20|\x09)*(\x0d\x0a))?(\x20|\x09)+)?(\x22)))@((([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|\d|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))\.)+(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])|(([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])([a-z]|\d|-|\.|_|~|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])*([a-z]|[\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF])))$/i;

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces that hit every branch of the regex: atext, dots, quotes, folding whitespace, escapes. */
const PIECES = ['a', 'Z', '7', '.', '-', '_', '~', '!', '+', '@', '"', '\\', ' ', '\t', '\r\n', 'é', '\u00A0', '(', 'q.b', 'x@y.z'];

function generated(count: number, seed: number): string[] {
  return fromPieces(PIECES, count, seed);
}

function fromPieces(pieces: readonly string[], count: number, seed: number): string[] {
  const next = random(seed);
  const samples: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 9);
    let s = '';
    for (let j = 0; j < length; j++) s += pieces[Math.floor(next() * pieces.length)];
    samples.push(s);
  }
  return samples;
}

describe('isValidEmail', () => {
  it('agrees with yup\'s regex on hand-picked addresses', () => {
    for (const email of [
      'jane@example.com',
      'JANE.DOE+x@Example.COM',
      '"john doe"@example.org',
      '"a\\"b"@example.org',
      'a@b.c',
      'a@b.c1',
      'a@1.b',
      'a@b-.c',
      'a@b..c',
      'a@.b.c',
      'a@b.c.',
      'a@b_c.d',
      'a.@b.c',
      '.a@b.c',
      'a@b',
      'é@ü.ö',
      '"x@y"@z.com',
      '"unterminated@z.com',
    ]) {
      expect(isValidEmail(email), email).toBe(yupEmail.test(email));
    }
  });

  it('agrees with yup\'s regex on 30,000 generated strings', () => {
    const disagreements = generated(30_000, 42).filter((s) => isValidEmail(s) !== yupEmail.test(s));
    expect(disagreements).toEqual([]);
  });

  it('agrees on generated local@domain shapes (many valid, quoted and dotted addresses)', () => {
    const atoms = fromPieces(['a', 'Z', '7', '.', '!', '+', 'é'], 10_000, 1);
    const quoted = fromPieces(['a', ' ', '\t', '\r\n', '\\', '"', '@', '.', '\\"', '\x01'], 10_000, 3).map((q) => `"${q}"`);
    const local = [...atoms, ...quoted];
    const domain = fromPieces(['a', 'Z', '7', '.', '-', '_', '~', 'é'], 20_000, 2);
    const tld = ['com', 'c0m', 'c', '1', 'a-b', 'é', ''];
    const emails = local.map((l, i) => `${l}@${domain[i]}.${tld[i % tld.length]}`);
    // A check that the generator really produces valid addresses of every kind.
    expect(emails.filter((e) => yupEmail.test(e)).length).toBeGreaterThan(2000);
    expect(emails.filter((e) => e.startsWith('"') && yupEmail.test(e)).length).toBeGreaterThan(500);
    expect(emails.filter((e) => isValidEmail(e) !== yupEmail.test(e))).toEqual([]);
  });

  it('stays fast on inputs that make yup\'s regex backtrack exponentially', () => {
    const started = Date.now();
    expect(isValidEmail(`a@${'a.'.repeat(100_000)}1`)).toBe(false);
    expect(isValidEmail(`"${' '.repeat(100_000)}x@a.bc`)).toBe(false);
    expect(isValidEmail(`${'x'.repeat(500_000)}@`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
