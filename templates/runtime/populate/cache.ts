/**
 * `populate` written as text (`*`, `author,tags`, `seo.image`) or as an object
 * (`populate[author][fields][0]=name&populate[tags][sort]=name:asc`, GraphQL's relation reads)
 * comes with most reads and plans to the same tree every time: parsed trees are kept per owner
 * type and text (an object's text is its JSON). A tree also depends on which target types the
 * caller may `find` (others are dropped), so each kept tree remembers the answers it was
 * parsed with and is reused only for a caller that gives the same ones. Trees are shared
 * between requests: nothing may change them. Populate execution keeps the statements it
 * compiles per tree node (execute.ts), so a kept tree is a kept plan.
 */
import type { ComponentMeta, ContentTypeMeta } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { parsePopulate, type PopulateOptions, type PopulateTree } from './parse.js';

interface Parsed {
  readonly tree: PopulateTree;
  readonly registry: PopulateOptions['registry'];
  readonly maxDepth: number;
  readonly deep: PopulateOptions['deep'];
  /** `null`: parsed without a caller check. */
  readonly answers: ReadonlyArray<readonly [uid: string, canFind: boolean]> | null;
}

/** Texts kept per owner type, and trees per text (callers with different permissions). */
const maxTexts = 100;
const maxTreesPerText = 8;
const longestText = 500;
/** An object's JSON may be longer (every key is spelt out). */
const longestJson = 2000;

/** Texts and JSON apart: a text may look like JSON. */
const byOwner = new WeakMap<ContentTypeMeta | ComponentMeta, { texts: Map<string, Parsed[]>; objects: Map<string, Parsed[]> }>();

export function parsePopulateCached(owner: ContentTypeMeta | ComponentMeta, raw: unknown, options: PopulateOptions): PopulateTree {
  const isText = typeof raw === 'string';
  const key = isText ? (raw.length > longestText ? undefined : raw) : jsonKey(raw);
  if (key === undefined) return parsePopulate(owner, raw, options);
  let kept = byOwner.get(owner);
  if (!kept) byOwner.set(owner, (kept = { texts: new Map(), objects: new Map() }));
  const keys = isText ? kept.texts : kept.objects;
  const trees = keys.get(key);
  const hit = trees?.find((parsed) => reusable(parsed, options));
  if (hit) return hit.tree;

  const { canFind } = options;
  const answers: Array<readonly [string, boolean]> = [];
  const recording = canFind
    ? (uid: string) => {
        const answer = canFind(uid);
        answers.push([uid, answer]);
        return answer;
      }
    : undefined;
  // A kept tree refers to the values it was parsed from: its own copy, not the request's.
  const tree = parsePopulate(owner, isText ? raw : JSON.parse(key), { ...options, ...(recording ? { canFind: recording } : {}) });
  const parsed: Parsed = { tree, registry: options.registry, maxDepth: options.maxDepth, deep: options.deep, answers: canFind ? answers : null };
  if (trees) {
    if (trees.length >= maxTreesPerText) trees.shift();
    trees.push(parsed);
  } else {
    if (keys.size >= maxTexts) keys.delete(keys.keys().next().value!);
    keys.set(key, [parsed]);
  }
  return tree;
}

/**
 * The JSON of a populate object made of JSON values only (what a query string or a GraphQL
 * literal gives), short enough to keep; undefined for anything else (a Date, a bigint, a
 * class instance parse differently from their JSON), which is parsed every time.
 */
function jsonKey(raw: unknown): string | undefined {
  if (!isPlainObject(raw) && !Array.isArray(raw)) return undefined;
  let plain = true;
  const text = JSON.stringify(raw, function (this: Record<string, unknown>, key: string) {
    // The value itself, not what its toJSON gave (a Date arrives here as text).
    const value = this[key];
    if (!plain) return undefined;
    if (value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
    if (Array.isArray(value) || isPlainObject(value)) return value;
    plain = false; // undefined too: a key with no value is not the same request as no key
    return undefined;
  });
  return plain && text.length <= longestJson ? text : undefined;
}

function reusable(parsed: Parsed, options: PopulateOptions): boolean {
  if (parsed.registry !== options.registry || parsed.maxDepth !== options.maxDepth || parsed.deep !== options.deep) return false;
  const { canFind } = options;
  if (parsed.answers === null || !canFind) return parsed.answers === null && !canFind;
  return parsed.answers.every(([uid, answer]) => canFind(uid) === answer);
}
