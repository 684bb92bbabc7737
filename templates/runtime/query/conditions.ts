/** Combining SQL boolean expressions; `undefined` stands for "no condition". */

/** `a AND b`, parenthesised when there is more than one part; undefined when none. */
export function and(parts: ReadonlyArray<string | undefined>): string | undefined {
  return join(parts, 'AND');
}

export function or(parts: ReadonlyArray<string | undefined>): string | undefined {
  return join(parts, 'OR');
}

function join(parts: ReadonlyArray<string | undefined>, operator: 'AND' | 'OR'): string | undefined {
  const present = parts.filter((part): part is string => part !== undefined);
  if (present.length <= 1) return present[0];
  return `(${present.join(` ${operator} `)})`;
}

export function not(part: string | undefined): string | undefined {
  return part === undefined ? undefined : `NOT (${part})`;
}
