/**
 * Names of stored files. Like Strapi v4, a file's `hash` is its base name made safe
 * (slugified with `_`, case kept) plus `_` and ten random hex digits; the stored file is
 * `<hash><ext>`, so no name a client sends ever reaches the file system.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import mimeTypes from 'mime-types';

/** Longest slug kept from a client's file name, so `<format>_<hash><ext>` stays far below 255 bytes. */
export const maxSlugLength = 100;

/** Letters that Unicode decomposition does not reduce to ASCII. */
const letters: Readonly<Record<string, string>> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i',
};

/**
 * `My Photo (1)` → `My_Photo_1`, `Crème brûlée` → `Creme_brulee`, `fooBar` → `foo_Bar`:
 * accents dropped, `&` spelled `and`, camel case split, every run of other characters one
 * `_`, none at either end, at most {@link maxSlugLength} characters. A name with nothing
 * left (`日本`) becomes `file`.
 */
export function slugifyFileName(name: string): string {
  let text = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæÆøØœŒđĐłŁþÞðÐı]/g, (c) => letters[c] ?? c)
    .replace(/&/g, ' and ');
  // Split camel case the way Strapi's slugify does: `XMLHttp2` → `XML Http 2`, `fooBar` → `foo Bar`.
  text = text
    .replace(/([A-Z]{2,})(\d+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-rt-z\d]+)/g, '$1 $2');
  const slug = text
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, maxSlugLength)
    .replace(/_+$/, '');
  return slug === '' ? 'file' : slug;
}

/** `<slug>_<10 random hex digits>`: the stored name of a file, without its extension. */
export function generateHash(baseName: string): string {
  return `${slugifyFileName(baseName)}_${randomBytes(5).toString('hex')}`;
}

/**
 * The file's extension with its dot, case kept (`.PNG`), as Strapi stores it. An extension
 * that is not 1–16 letters and digits is not trusted: the MIME type's usual extension is
 * used instead, or none.
 */
export function fileExtension(fileName: string, mime: string): string {
  const ext = path.extname(fileName);
  if (/^\.[A-Za-z0-9]{1,16}$/.test(ext)) return ext;
  const fromMime = mime ? mimeTypes.extension(mime) : false;
  return fromMime ? `.${fromMime}` : '';
}

/**
 * The MIME type to store: the one the client sent with the file part, lower-cased, unless
 * it is missing, malformed or the generic `application/octet-stream`; then the one the
 * extension implies, else `application/octet-stream`.
 */
export function resolveMime(sent: string | undefined, ext: string): string {
  const given = (sent ?? '').trim().toLowerCase();
  if (/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(given) && given !== 'application/octet-stream') return given;
  return (ext && mimeTypes.lookup(ext)) || 'application/octet-stream';
}

/** The MIME type a received file is stored with: the one sent, checked against its name's extension (see resolveMime). */
export function storedMime(fileName: string, sent: string): string {
  return resolveMime(sent, fileExtension(fileName, sent));
}

/**
 * The name a file keeps: `fileInfo.name` if given, else the client's file name, NFC-normalized.
 * Control characters of the client's name (a NUL PostgreSQL cannot store) are dropped.
 */
export function displayName(clientName: string, infoName: string | null | undefined): string {
  return (infoName || clientName.replace(/[\u0000-\u001f\u007f]/g, '')).normalize();
}

/** Strapi stores sizes in kilobytes (1000 bytes) rounded to two decimals. */
export function bytesToKbytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100;
}

/** `209715200` → `200 MB` (binary multiples, at most two decimals), for error messages. */
export function humanSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value * 100) / 100} ${units[unit]}`;
}
