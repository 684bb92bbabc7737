/**
 * Prints plain data as a TypeScript literal: single quotes, unquoted identifier keys, two
 * spaces, trailing commas. Key order is the caller's, so output is deterministic.
 */
export function tsLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'null';
  if (value instanceof Code) return value.text;
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => tsLiteral(item, inner));
    const oneLine = `[${items.join(', ')}]`;
    if (oneLine.length <= 80 && !oneLine.includes('\n')) return oneLine;
    return `[\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const items = entries.map(([k, v]) => `${key(k)}: ${tsLiteral(v, inner)}`);
    const oneLine = `{ ${items.join(', ')} }`;
    if (oneLine.length <= 100 && !oneLine.includes('\n') && indent.length >= 4) return oneLine;
    return `{\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}}`;
  }
  throw new Error(`cannot print ${typeof value} as a TypeScript literal`);
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** An expression printed as written (e.g. the name of a constant the literal refers to). */
export class Code {
  constructor(readonly text: string) {}
}
