/**
 * Image work with sharp: reading an upload's format and dimensions, Strapi's size
 * optimization / auto orientation, and the resized copies behind `formats`. Every function
 * reads a file and writes a file, so no image is ever held whole in memory by us.
 *
 * Decoding is what costs (about 4 bytes a pixel, whatever the file's size: a 250 KB PNG can
 * hold 16000 × 16000 pixels). The upload service checks the dimensions `probeImage` reads from
 * the header against its pixel limit before anything decodes, runs at most a few images at
 * once (`Semaphore`), and every decoding call carries the limit too (sharp's
 * `limitInputPixels`), should a header lie.
 */
import type { FormatEnum, Sharp, SharpOptions } from 'sharp';

type SharpFactory = (typeof import('sharp'))['default'];
let loadingSharp: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips) adds ~55 MB to the process; most servers never resize an image, so it is
 * loaded on the first image, not at start.
 */
function loadSharp(): Promise<SharpFactory> {
  return (loadingSharp ??= import('sharp').then((module) => module.default));
}

/** Tolerate decoder warnings (common in camera JPEGs) but not corrupt data; decode at most `maxPixels`. */
function input(maxPixels: number): SharpOptions {
  return { failOn: 'error', limitInputPixels: maxPixels };
}

export interface ImageProbe {
  /** sharp's decoder name (`jpeg`, `png`, `webp`, `gif`, `tiff`, `svg`, ...), `avif` for AV1 HEIF. */
  readonly format: string;
  readonly width: number;
  readonly height: number;
  /** EXIF orientation (1–8) when the file carries one. */
  readonly orientation?: number;
}

/** The image's format and dimensions from its header (nothing is decoded), or null when sharp cannot read it. */
export async function probeImage(file: string): Promise<ImageProbe | null> {
  try {
    const meta = await (await loadSharp())(file, { failOn: 'error', limitInputPixels: false }).metadata();
    if (!meta.format || !meta.width || !meta.height) return null;
    const format = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
    return { format, width: meta.width, height: meta.height, ...(meta.orientation ? { orientation: meta.orientation } : {}) };
  } catch {
    return null;
  }
}

export interface WrittenImage {
  readonly width: number;
  readonly height: number;
  /** Bytes written. */
  readonly size: number;
}

interface OutputOptions {
  /** The source's format: outputs keep it. */
  readonly format: string;
  /**
   * An EXIF orientation to write into the output (sharp drops metadata), so an image that
   * is not auto-oriented still displays upright.
   */
  readonly orientation?: number;
  /** Largest input decoded (sharp's `limitInputPixels`); a larger one fails with sharp's "pixel limit" error. */
  readonly maxPixels: number;
}

function finish(pipeline: Sharp, options: Omit<OutputOptions, 'maxPixels'> & { quality?: number }): Sharp {
  const withFormat = pipeline.toFormat(options.format as keyof FormatEnum, options.quality === undefined ? {} : { quality: options.quality });
  return options.orientation && options.orientation !== 1
    ? withFormat.withExif({ IFD0: { Orientation: String(options.orientation) } })
    : withFormat;
}

/**
 * Strapi's `optimize`: the image re-encoded in its own format at `quality` (80 with size
 * optimization, else 100), rotated upright first when `autoOrient`.
 */
export async function writeOptimized(
  source: string,
  target: string,
  options: OutputOptions & { readonly quality: number; readonly autoOrient: boolean },
): Promise<WrittenImage> {
  let pipeline = (await loadSharp())(source, input(options.maxPixels));
  if (options.autoOrient) pipeline = pipeline.autoOrient();
  const info = await finish(pipeline, { ...options, ...(options.autoOrient ? { orientation: undefined } : {}) }).toFile(target);
  return { width: info.width, height: info.height, size: info.size };
}

/** The image resized to fit inside `box` (aspect ratio kept, never enlarged), in its own format. */
export async function writeResized(
  source: string,
  target: string,
  box: { readonly width: number; readonly height: number },
  options: OutputOptions,
): Promise<WrittenImage> {
  const pipeline = (await loadSharp())(source, input(options.maxPixels)).resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true });
  const info = await finish(pipeline, options).toFile(target);
  return { width: info.width, height: info.height, size: info.size };
}

/** At most `limit` tasks run at once; the others wait, first come first served. */
export class Semaphore {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`Semaphore: limit must be a positive integer, got ${limit}`);
  }

  /** Tasks running now, and waiting. */
  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running += 1;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter (running stays the same), or free it.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
