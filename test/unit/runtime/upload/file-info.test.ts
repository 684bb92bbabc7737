/** `fileInfo` as multipart fields or JSON: one object, an array, or one field per file. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import { parseFileInfo } from '../../../../templates/runtime/upload/service.js';

describe('parseFileInfo', () => {
  it('is empty without fileInfo', () => {
    expect(parseFileInfo(undefined)).toEqual([]);
    expect(parseFileInfo(null)).toEqual([]);
  });

  it('reads one JSON object, a JSON array, or one field per file', () => {
    expect(parseFileInfo(['{"name":"a","alternativeText":"alt","caption":null}'])).toEqual([{ name: 'a', alternativeText: 'alt', caption: null }]);
    expect(parseFileInfo(['[{"name":"a"},{"caption":"c"}]'])).toEqual([{ name: 'a' }, { caption: 'c' }]);
    expect(parseFileInfo(['{"name":"a"}', '{"name":"b"}'])).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(parseFileInfo({ alternativeText: 'x' })).toEqual([{ alternativeText: 'x' }]);
    expect(parseFileInfo('{"caption":"c"}')).toEqual([{ caption: 'c' }]);
  });

  it('ignores unknown keys and treats empty or null entries as no info', () => {
    expect(parseFileInfo(['{"name":"a","folder":3,"other":true}'])).toEqual([{ name: 'a' }]);
    expect(parseFileInfo([''])).toEqual([{}]);
    expect(parseFileInfo(['null', '{"name":"b"}'])).toEqual([{}, { name: 'b' }]);
  });

  it('refuses invalid JSON and wrongly typed values with 400', () => {
    expect(() => parseFileInfo(['{nope'])).toThrow(new ValidationError('Invalid JSON in fileInfo'));
    let error: ValidationError | undefined;
    try {
      parseFileInfo(['[{"name":"a"},{"name":5}]']);
    } catch (err) {
      error = err as ValidationError;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.message).toBe('fileInfo.1.name must be a `string` type');
    expect(error!.details).toEqual({ errors: [{ path: ['fileInfo', '1', 'name'], message: 'fileInfo.1.name must be a `string` type', name: 'ValidationError' }] });
    expect(() => parseFileInfo(['"text"'])).toThrow('fileInfo must be a `object` type');
  });
});
