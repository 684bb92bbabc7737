/** Stored file names: slugified base names, random suffixes, trusted extensions and MIME types. */
import { describe, expect, it } from 'vitest';
import {
  bytesToKbytes,
  displayName,
  fileExtension,
  generateHash,
  humanSize,
  maxSlugLength,
  resolveMime,
  slugifyFileName,
} from '../../../../templates/runtime/upload/filename.js';

describe('slugifyFileName', () => {
  it.each([
    ['photo', 'photo'],
    ['My Photo (1)', 'My_Photo_1'],
    ['Crème brûlée', 'Creme_brulee'],
    ['Straße Ærø', 'Strasse_A_Ero'],
    ['fooBar', 'foo_Bar'],
    ['XMLHttpRequest2', 'XML_Http_Request2'],
    ['salt & pepper', 'salt_and_pepper'],
    ['__weird--name__', 'weird_name'],
    ['../../etc/passwd', 'etc_passwd'],
    ['..\\..\\windows\\system32', 'windows_system32'],
    ['a\u0000b', 'a_b'],
    ['%2e%2e%2f', '2e_2e_2f'],
    ['日本語', 'file'],
    ['...', 'file'],
    ['', 'file'],
  ])('%j → %j', (input, expected) => {
    expect(slugifyFileName(input)).toBe(expected);
  });

  it('keeps only ASCII letters, digits and single underscores', () => {
    for (const name of ['a b\tc\nd', '<script>alert(1)</script>', 'x;rm -rf /;y', 'ünï©ødé €uro', 'a/./b//c', 'C:\\x']) {
      expect(slugifyFileName(name)).toMatch(/^[A-Za-z0-9]+(_[A-Za-z0-9]+)*$/);
    }
  });

  it(`caps the slug at ${maxSlugLength} characters, with no trailing underscore`, () => {
    const slug = slugifyFileName(`${'a'.repeat(99)} bbbbbbbb`);
    expect(slug.length).toBeLessThanOrEqual(maxSlugLength);
    expect(slug).toBe('a'.repeat(99));
    expect(slugifyFileName('x'.repeat(5000))).toHaveLength(maxSlugLength);
  });
});

describe('generateHash', () => {
  it('is the slug, an underscore and ten random hex digits', () => {
    const hash = generateHash('My Photo');
    expect(hash).toMatch(/^My_Photo_[0-9a-f]{10}$/);
    expect(generateHash('My Photo')).not.toBe(hash);
  });
});

describe('fileExtension', () => {
  it('keeps the file name extension and its case', () => {
    expect(fileExtension('a.PNG', 'image/png')).toBe('.PNG');
    expect(fileExtension('archive.tar.gz', 'application/gzip')).toBe('.gz');
  });
  it('falls back to the MIME type extension when the name has none or an odd one', () => {
    expect(fileExtension('README', 'text/plain')).toBe('.txt');
    expect(fileExtension('x.p g', 'image/png')).toBe('.png');
    expect(fileExtension('x.png?a=1', 'image/jpeg')).toBe('.jpg');
    expect(fileExtension('x.' + 'a'.repeat(17), 'text/plain')).toBe('.txt');
  });
  it('is empty when neither tells', () => {
    expect(fileExtension('README', 'application/x-nothing-known')).toBe('');
    expect(fileExtension('README', '')).toBe('');
  });
});

describe('resolveMime', () => {
  it('uses the type the client sent, lower-cased', () => {
    expect(resolveMime('image/png', '.png')).toBe('image/png');
    expect(resolveMime('IMAGE/PNG', '.png')).toBe('image/png');
    expect(resolveMime('text/plain', '.png')).toBe('text/plain');
  });
  it('looks the extension up when the type is missing, generic or malformed', () => {
    expect(resolveMime(undefined, '.png')).toBe('image/png');
    expect(resolveMime('application/octet-stream', '.pdf')).toBe('application/pdf');
    expect(resolveMime('not a type', '.mp4')).toBe('video/mp4');
    expect(resolveMime('', '')).toBe('application/octet-stream');
    expect(resolveMime('application/octet-stream', '.unknownext')).toBe('application/octet-stream');
  });
});

describe('sizes', () => {
  it('stores kilobytes of 1000 bytes with two decimals, like Strapi', () => {
    expect(bytesToKbytes(0)).toBe(0);
    expect(bytesToKbytes(1234)).toBe(1.23);
    expect(bytesToKbytes(1235)).toBe(1.24);
    expect(bytesToKbytes(1_000_000)).toBe(1000);
  });
  it('prints limits in binary units', () => {
    expect(humanSize(200 * 1024 * 1024)).toBe('200 MB');
    expect(humanSize(1000)).toBe('1000 bytes');
    expect(humanSize(1536)).toBe('1.5 KB');
    expect(humanSize(1024 ** 3)).toBe('1 GB');
  });
});

describe('displayName', () => {
  it('prefers fileInfo.name, and normalizes to NFC', () => {
    expect(displayName('a.png', 'Nice name')).toBe('Nice name');
    expect(displayName('a.png', null)).toBe('a.png');
    expect(displayName('a.png', '')).toBe('a.png');
    expect(displayName('Cre\u0300me.png', undefined)).toBe('Crème.png');
  });
});
