/**
 * `allowedTypes` of media fields, with Strapi v4's meaning: `images`, `videos` and
 * `audios` match the top-level MIME type (`image/*`, `video/*`, `audio/*`); `files` matches
 * everything else. No `allowedTypes` (or an empty list) allows every file.
 */
import type { MediaFieldMeta } from '../meta.js';
import { validationErrors } from '../errors.js';

export type MediaType = 'images' | 'videos' | 'audios' | 'files';

/** The `allowedTypes` category of a MIME type. */
export function mediaTypeOf(mime: string | null | undefined): MediaType {
  const top = (mime ?? '').split('/')[0]!.trim().toLowerCase();
  if (top === 'image') return 'images';
  if (top === 'video') return 'videos';
  if (top === 'audio') return 'audios';
  return 'files';
}

export function isAllowedType(allowedTypes: readonly string[] | null | undefined, mime: string | null | undefined): boolean {
  if (!allowedTypes || allowedTypes.length === 0) return true;
  return allowedTypes.includes(mediaTypeOf(mime));
}

/**
 * Throws 400 ValidationError when `file` may not be linked to `field`, e.g.
 * `cover only accepts images: "notes.txt" is text/plain`, with `details.errors[0].path`
 * = `path` (default `[field.name]`; give the full path inside components).
 */
export function assertAllowedTypes(
  field: Pick<MediaFieldMeta, 'name' | 'allowedTypes'>,
  file: { readonly mime: string | null; readonly name?: string | null; readonly id?: number },
  path: readonly string[] = [field.name],
): void {
  if (isAllowedType(field.allowedTypes, file.mime)) return;
  const what = file.name ? JSON.stringify(file.name) : file.id !== undefined ? `file ${file.id}` : 'the file';
  const message = `${field.name} only accepts ${listOf(field.allowedTypes!)}: ${what} is ${file.mime || 'of unknown type'}`;
  throw validationErrors([{ path: [...path], message, name: 'ValidationError' }]);
}

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
