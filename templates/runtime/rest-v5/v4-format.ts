/**
 * `Strapi-Response-Format: v4` on the v5 mount, as Strapi 5 does it: only the JSON of content
 * answers is re-wrapped (`{ id, documentId, attributes: { …, relations as { data } } }`);
 * ids, documentIds, drafts, statuses, DELETE's 204 and errors stay v5.
 */
import type { Context } from 'koa';
import type { ContentTypeMeta, FieldMeta, Registry } from '../meta.js';

const fileUid = 'plugin::upload.file';

export function wantsV4Format(ctx: Context): boolean {
  return ctx.get('strapi-response-format').trim().toLowerCase() === 'v4';
}

/** The answer `{ data, meta }` in the v4 format when the request asked for it, else as it is. */
export function v4Format(ctx: Context, registry: Registry, meta: ContentTypeMeta, answer: unknown): unknown {
  if (!wantsV4Format(ctx) || !isBag(answer) || !('data' in answer)) return answer;
  const data = answer.data;
  return { ...answer, data: Array.isArray(data) ? data.map((e) => wrapEntry(registry, meta, e)) : wrapEntry(registry, meta, data) };
}

function wrapEntry(registry: Registry, meta: ContentTypeMeta | undefined, entry: unknown): unknown {
  if (!isBag(entry)) return entry;
  const { id, documentId, ...attributes } = entry;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = wrapValue(registry, meta?.fields[key], value);
  return { id, documentId, attributes: out };
}

function wrapValue(registry: Registry, field: FieldMeta | undefined, value: unknown): unknown {
  if (!field) return value;
  if (field.kind === 'relation' || field.kind === 'media') {
    if (isBag(value) && 'count' in value && !('id' in value)) return value;
    const target = registry.contentTypes.get(field.kind === 'media' ? fileUid : field.target);
    return { data: Array.isArray(value) ? value.map((e) => wrapEntry(registry, target, e)) : value === undefined ? null : wrapEntry(registry, target, value) };
  }
  return value;
}

function isBag(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
