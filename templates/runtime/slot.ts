/**
 * A value attached to an object under a private symbol: what a WeakMap does, for the objects
 * a request makes by the hundred (entries' attributes), without the cost a WeakMap entry has
 * in V8 (an ephemeron the garbage collector must trace). JSON.stringify and Object.keys skip
 * symbol keys, so the object answers as before.
 */
export class Slot<T> {
  readonly #key: symbol;

  constructor(description: string) {
    this.#key = Symbol(description);
  }

  get(target: object): T | undefined {
    return (target as Record<symbol, T | undefined>)[this.#key];
  }

  set(target: object, value: T): void {
    (target as Record<symbol, T>)[this.#key] = value;
  }
}
