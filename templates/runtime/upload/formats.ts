/**
 * Which responsive formats Strapi v4 makes of an image, and their shape in `formats`.
 *
 * - `thumbnail`: fits inside 245×156, made only when the image is wider than 245 or taller
 *   than 156.
 * - one format per breakpoint (default large 1000, medium 750, small 500): fits inside a
 *   breakpoint×breakpoint box, made only when the image is wider or taller than it.
 *
 * Every resize keeps the aspect ratio (`fit: inside`) and never enlarges.
 */
import { bytesToKbytes } from './filename.js';

export const thumbnailBox = { width: 245, height: 156 } as const;

/** Image formats sharp reads whose dimensions are stored (Strapi's FORMATS_TO_PROCESS). */
export const processedImageFormats: readonly string[] = ['jpeg', 'png', 'webp', 'tiff', 'svg', 'gif', 'avif'];
/** Image formats that get a thumbnail and responsive formats (Strapi's FORMATS_TO_RESIZE). */
export const resizedImageFormats: readonly string[] = ['jpeg', 'png', 'webp', 'tiff', 'gif'];
/** Image formats that size optimization and auto orientation re-encode (Strapi's FORMATS_TO_OPTIMIZE). */
export const optimizedImageFormats: readonly string[] = ['jpeg', 'png', 'webp', 'tiff', 'avif'];

export interface Dimensions {
  readonly width: number;
  readonly height: number;
}

export interface PlannedFormat {
  /** `thumbnail` or a breakpoint name; the key in `formats` and the name prefix. */
  readonly key: string;
  /** The box the image is resized to fit inside. */
  readonly box: Dimensions;
}

/** The formats an image of these dimensions gets, thumbnail first, then breakpoints in config order. */
export function planFormats(image: Dimensions, breakpoints: Readonly<Record<string, number>>): PlannedFormat[] {
  const planned: PlannedFormat[] = [];
  if (image.width > thumbnailBox.width || image.height > thumbnailBox.height) {
    planned.push({ key: 'thumbnail', box: thumbnailBox });
  }
  for (const [key, size] of Object.entries(breakpoints)) {
    if (size < image.width || size < image.height) planned.push({ key, box: { width: size, height: size } });
  }
  return planned;
}

/**
 * The dimensions sharp gives an image resized with `fit: inside` into `box`: the side that
 * needs the larger reduction takes the box's size, the other is scaled and rounded.
 */
export function fitInside(image: Dimensions, box: Dimensions): Dimensions {
  const xFactor = image.width / box.width;
  const yFactor = image.height / box.height;
  if (xFactor <= 1 && yFactor <= 1) return { width: image.width, height: image.height };
  if (xFactor > yFactor) return { width: box.width, height: Math.max(1, Math.round(image.height / xFactor)) };
  return { width: Math.max(1, Math.round(image.width / yFactor)), height: box.height };
}

/** One entry of a file's `formats`, in Strapi's key order. */
export interface FileFormat {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  /** Kilobytes, two decimals. */
  size: number;
  sizeInBytes: number;
  url: string;
}

export function formatEntry(
  key: string,
  original: { name: string; hash: string; ext: string; mime: string },
  output: { width: number; height: number; sizeInBytes: number; url: string },
): FileFormat {
  return {
    name: `${key}_${original.name}`,
    hash: `${key}_${original.hash}`,
    ext: original.ext,
    mime: original.mime,
    path: null,
    width: output.width,
    height: output.height,
    size: bytesToKbytes(output.sizeInBytes),
    sizeInBytes: output.sizeInBytes,
    url: output.url,
  };
}
