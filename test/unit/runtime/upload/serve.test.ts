/** Which request paths name a servable upload, and byte ranges. */
import { describe, expect, it } from 'vitest';
import { parseRange, uploadNameOf } from '../../../../templates/runtime/upload/serve.js';

describe('uploadNameOf', () => {
  it('answers the decoded single file name', () => {
    expect(uploadNameOf('/uploads/cat_0123456789.png')).toBe('cat_0123456789.png');
    expect(uploadNameOf('/uploads/a%20b.png')).toBe('a b.png');
  });

  it.each([
    '/uploads/',
    '/uploads',
    '/uploadsx/a.png',
    '/uploads/..',
    '/uploads/../package.json',
    '/uploads/%2e%2e',
    '/uploads/%2e%2e%2fpackage.json',
    '/uploads/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
    '/uploads/..%5cpackage.json',
    '/uploads/a%2Fb.png',
    '/uploads/sub/a.png',
    '/uploads/.hidden',
    '/uploads/a%00.png',
    '/uploads/%E0%A4%A',
    '/other/a.png',
  ])('refuses %s', (p) => {
    expect(uploadNameOf(p)).toBeNull();
  });
});

describe('parseRange', () => {
  it('reads one range in each spelling', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=50-1000', 100)).toEqual({ start: 50, end: 99 });
  });

  it('is unsatisfiable past the end', () => {
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });

  it('sends the whole file for no, several, foreign or malformed ranges', () => {
    expect(parseRange('', 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=-', 100)).toBeNull();
    expect(parseRange('bytes=9-5', 100)).toBeNull();
  });

  it('honours If-Range', () => {
    const mtime = new Date('2024-01-01T00:00:00Z');
    expect(parseRange('bytes=0-9', 100, 'W/"a"', 'W/"a"', mtime)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=0-9', 100, 'W/"b"', 'W/"a"', mtime)).toBeNull();
    expect(parseRange('bytes=0-9', 100, mtime.toUTCString(), 'W/"a"', mtime)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=0-9', 100, new Date('2023-01-01').toUTCString(), 'W/"a"', mtime)).toBeNull();
  });
});
