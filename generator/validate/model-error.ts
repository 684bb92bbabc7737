/** A problem in the user's models: where it is and what is wrong. */
export interface ModelError {
  /** Path of the model file, relative to the models folder. */
  readonly file: string;
  /** JSON pointer inside that file, e.g. `/attributes/title/type`; '' for the whole file. */
  readonly pointer: string;
  readonly message: string;
}

export function formatModelError(error: ModelError): string {
  return `${error.file}${error.pointer ? ` ${error.pointer}` : ''}: ${error.message}`;
}

/** `Did you mean "string"?` for near misses (graphql-js style). */
export function didYouMean(input: string, options: readonly string[]): string {
  const scored = options
    .map((option) => ({ option, distance: levenshtein(input.toLowerCase(), option.toLowerCase()) }))
    .filter(({ option, distance }) => distance <= Math.max(1, Math.floor(option.length / 3)))
    .sort((a, b) => a.distance - b.distance || (a.option < b.option ? -1 : 1));
  if (scored.length === 0) return '';
  // Only the closest: a far second guess is noise, not help.
  const best = scored.filter(({ distance }) => distance === scored[0]!.distance);
  return ` Did you mean ${best.slice(0, 3).map(({ option }) => `"${option}"`).join(' or ')}?`;
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
