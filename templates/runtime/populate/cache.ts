/**
 * `populate` written as text (`*`, `author,tags`, `seo.image`) comes with most reads and
 * plans to the same tree every time: parsed trees are kept per owner type and text. A tree
 * also depends on which target types the caller may `find` (others are dropped), so each
 * kept tree remembers the answers it was parsed with and is reused only for a caller that
 * gives the same ones. Trees are shared between requests: nothing may change them.
 */
import type { ComponentMeta, ContentTypeMeta } from '../meta.js';
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

const byOwner = new WeakMap<ContentTypeMeta | ComponentMeta, Map<string, Parsed[]>>();

export function parsePopulateCached(owner: ContentTypeMeta | ComponentMeta, raw: unknown, options: PopulateOptions): PopulateTree {
  if (typeof raw !== 'string' || raw.length > longestText) return parsePopulate(owner, raw, options);
  let texts = byOwner.get(owner);
  if (!texts) byOwner.set(owner, (texts = new Map()));
  const kept = texts.get(raw);
  const hit = kept?.find((parsed) => reusable(parsed, options));
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
  const tree = parsePopulate(owner, raw, { ...options, ...(recording ? { canFind: recording } : {}) });
  const parsed: Parsed = { tree, registry: options.registry, maxDepth: options.maxDepth, deep: options.deep, answers: canFind ? answers : null };
  if (kept) {
    if (kept.length >= maxTreesPerText) kept.shift();
    kept.push(parsed);
  } else {
    if (texts.size >= maxTexts) texts.delete(texts.keys().next().value!);
    texts.set(raw, [parsed]);
  }
  return tree;
}

function reusable(parsed: Parsed, options: PopulateOptions): boolean {
  if (parsed.registry !== options.registry || parsed.maxDepth !== options.maxDepth || parsed.deep !== options.deep) return false;
  const { canFind } = options;
  if (parsed.answers === null || !canFind) return parsed.answers === null && !canFind;
  return parsed.answers.every(([uid, answer]) => canFind(uid) === answer);
}
