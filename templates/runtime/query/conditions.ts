/** Combining SQL boolean expressions; `undefined` stands for "no condition". */

/** `a AND b`, parenthesised when there is more than one part; undefined when none. */
export function and(parts: ReadonlyArray<string | undefined>): string | undefined {
  return join(parts, 'AND');
}

export function or(parts: ReadonlyArray<string | undefined>): string | undefined {
  return join(parts, 'OR');
}

/**
 * Databases parse `a OR b OR c …` as a chain of binary nodes as deep as the list is long, and
 * SQLite refuses a tree deeper than 1,000: a longer list is parenthesised in groups of
 * `groupSize`, which keeps the tree shallow (and means the same).
 */
const groupSize = 100;

function join(parts: ReadonlyArray<string | undefined>, operator: 'AND' | 'OR'): string | undefined {
  let present = parts.filter((part): part is string => part !== undefined);
  if (present.length <= 1) return present[0];
  while (present.length > groupSize) {
    const grouped: string[] = [];
    for (let i = 0; i < present.length; i += groupSize) {
      const group = present.slice(i, i + groupSize);
      grouped.push(group.length === 1 ? group[0]! : `(${group.join(` ${operator} `)})`);
    }
    present = grouped;
  }
  return `(${present.join(` ${operator} `)})`;
}

export function not(part: string | undefined): string | undefined {
  return part === undefined ? undefined : `NOT (${part})`;
}
