/**
 * yup 0.32's `string().email()` check, rewritten so it cannot backtrack exponentially.
 *
 * yup's single regex (the jquery-validate one) takes seconds on inputs like
 * `a@a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.1`: its domain part nests `(x[x.]*x\.)+`.
 * The language it accepts is the same as the pieces below (test/unit/runtime/entity compares
 * both on generated inputs):
 * - local part: dot-atoms of `atext`, or a quoted string;
 * - domain: characters from `[a-z0-9._~-]` (plus the non-ASCII ranges), starting with a letter
 *   or digit, ending with a letter, with at least one `<letter-or-digit>.<letter>` inside.
 *   (yup's `(label\.)+tld` collapses to that because its label class already contains `.`.)
 * The domain cannot contain `@`, so the last `@` separates the two parts.
 */

const NON_ASCII = '\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF';
const ATEXT = `[a-z\\d!#$%&'*+\\-/=?^_\`{|}~${NON_ASCII}]`;
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`, 'i');

const WSP = '[\\x20\\x09]';
const FOLDING_WHITESPACE = `(?:(?:${WSP}*\\x0d\\x0a)?${WSP}+)`;
const QTEXT = `[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f\\x21\\x23-\\x5b\\x5d-\\x7e${NON_ASCII}]`;
const QUOTED_PAIR = `\\\\[\\x01-\\x09\\x0b\\x0c\\x0d-\\x7f${NON_ASCII}]`;
const QUOTED_STRING = new RegExp(
  `^"(?:${FOLDING_WHITESPACE}?(?:${QTEXT}|${QUOTED_PAIR}))*${FOLDING_WHITESPACE}?"$`,
  'i',
);

const ALNUM = `a-z\\d${NON_ASCII}`;
const ALPHA = `a-z${NON_ASCII}`;
const DOMAIN_CHARS = new RegExp(`^[${ALNUM}\\-._~]+$`, 'i');
const DOMAIN_START = new RegExp(`^[${ALNUM}]`, 'i');
const DOMAIN_END = new RegExp(`[${ALPHA}]$`, 'i');
const DOMAIN_SPLIT = new RegExp(`[${ALNUM}]\\.[${ALPHA}]`, 'i');

export function isValidEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at < 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  return (DOT_ATOM.test(local) || QUOTED_STRING.test(local)) && isValidDomain(domain);
}

function isValidDomain(domain: string): boolean {
  return (
    DOMAIN_CHARS.test(domain) &&
    DOMAIN_START.test(domain) &&
    DOMAIN_END.test(domain) &&
    DOMAIN_SPLIT.test(domain)
  );
}
