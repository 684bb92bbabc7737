/** `allowedTypes` of media fields: images, videos, audios, and files for everything else. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import { assertAllowedTypes, isAllowedType, mediaTypeOf } from '../../../../templates/runtime/upload/allowed-types.js';
import type { MediaFieldMeta } from '../../../../templates/runtime/meta.js';

const cover: MediaFieldMeta = { kind: 'media', name: 'cover', multiple: false, allowedTypes: ['images'] };

describe('mediaTypeOf', () => {
  it.each([
    ['image/png', 'images'],
    ['image/svg+xml', 'images'],
    ['IMAGE/JPEG', 'images'],
    ['video/mp4', 'videos'],
    ['audio/mpeg', 'audios'],
    ['application/pdf', 'files'],
    ['text/plain', 'files'],
    ['', 'files'],
    [null, 'files'],
  ])('%s → %s', (mime, type) => {
    expect(mediaTypeOf(mime)).toBe(type);
  });
});

describe('isAllowedType', () => {
  it('allows everything without allowedTypes', () => {
    expect(isAllowedType(undefined, 'text/plain')).toBe(true);
    expect(isAllowedType(null, 'video/mp4')).toBe(true);
    expect(isAllowedType([], 'image/png')).toBe(true);
  });
  it('matches the top-level type; "files" is what is not an image, video or audio', () => {
    expect(isAllowedType(['images'], 'image/png')).toBe(true);
    expect(isAllowedType(['images'], 'text/plain')).toBe(false);
    expect(isAllowedType(['files'], 'application/pdf')).toBe(true);
    expect(isAllowedType(['files'], 'image/png')).toBe(false);
    expect(isAllowedType(['images', 'files'], 'video/mp4')).toBe(false);
    expect(isAllowedType(['images', 'videos', 'audios'], 'audio/ogg')).toBe(true);
    expect(isAllowedType(['images', 'videos', 'audios', 'files'], 'anything/else')).toBe(true);
  });
});

describe('assertAllowedTypes', () => {
  it('passes an allowed file', () => {
    expect(() => assertAllowedTypes(cover, { mime: 'image/png', name: 'cat.png' })).not.toThrow();
  });

  it('throws a 400 ValidationError naming the field, the file and the allowed types', () => {
    let error: unknown;
    try {
      assertAllowedTypes(cover, { mime: 'text/plain', name: 'notes.txt' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    expect(e.status).toBe(400);
    expect(e.message).toBe('cover only accepts images: "notes.txt" is text/plain');
    expect(e.details).toEqual({ errors: [{ path: ['cover'], message: e.message, name: 'ValidationError' }] });
  });

  it('lists several allowed types, names a file by id, and takes a path inside components', () => {
    const field = { name: 'attachment', allowedTypes: ['videos', 'audios', 'files'] };
    expect(() => assertAllowedTypes(field, { mime: 'image/png', id: 7 }, ['blocks', '0', 'attachment'])).toThrow(
      'attachment only accepts videos, audios or files: file 7 is image/png',
    );
    try {
      assertAllowedTypes(field, { mime: 'image/png', id: 7 }, ['blocks', '0', 'attachment']);
    } catch (err) {
      expect((err as ValidationError).details['errors']).toEqual([expect.objectContaining({ path: ['blocks', '0', 'attachment'] })]);
    }
  });
});
