/**
 * Prints plain data as a TypeScript literal: single quotes, unquoted identifier keys, two
 * spaces, trailing commas. Key order is the caller's, so output is deterministic. A style
 * says when a list or object stays on one line, and may print values plain data has no
 * literal for (the seeded config's `env()` reads and dates: emit/project/config-seed.ts).
 */
export interface LiteralStyle {
  /** Whether a list or object printed on one line (`flat`, no line break in it) stays there; `indent`: its line's. */
  oneLine(flat: string, indent: string, kind: 'array' | 'object'): boolean;
  /** The source of a value this style prints itself, or undefined to print it as data. */
  special?(value: unknown): string | undefined;
  /** Print object entries whose value is undefined (`key: undefined`) instead of leaving them out. */
  readonly keepUndefined?: boolean;
}

/** The generated modules' style (metadata, permissions): lists up to 80 characters on a line, objects nested 4 deep up to 100. */
const dataStyle: LiteralStyle = {
  oneLine: (flat, indent, kind) => (kind === 'array' ? flat.length <= 80 : flat.length <= 100 && indent.length >= 4),
};

export function tsLiteral(value: unknown, indent = '', style: LiteralStyle = dataStyle): string {
  const special = style.special?.(value);
  if (special !== undefined) return special;
  if (value === null) return 'null';
  if (value instanceof Code) return value.text;
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => tsLiteral(item, inner, style));
    return layout(items, '[', ']', indent, style, 'array');
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => style.keepUndefined || v !== undefined);
    if (entries.length === 0) return '{}';
    const items = entries.map(([k, v]) => `${key(k)}: ${tsLiteral(v, inner, style)}`);
    return layout(items, '{ ', ' }', indent, style, 'object');
  }
  throw new Error(`cannot print ${typeof value} as a TypeScript literal`);
}

function layout(items: readonly string[], open: string, close: string, indent: string, style: LiteralStyle, kind: 'array' | 'object'): string {
  const flat = `${open}${items.join(', ')}${close}`;
  if (!flat.includes('\n') && style.oneLine(flat, indent, kind)) return flat;
  return `${open.trim()}\n${items.map((item) => `${indent}  ${item},\n`).join('')}${indent}${close.trim()}`;
}

/** A single-quoted string literal (line and paragraph separators escaped too: older parsers end a line there). */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')}'`;
}

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** An expression printed as written (e.g. the name of a constant the literal refers to). */
export class Code {
  constructor(readonly text: string) {}
}
