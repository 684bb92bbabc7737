/**
 * Settings of the upload plugin: Strapi v4's `plugins.upload.config` keys (the provider,
 * local or one the server was built with (providers.ts), and its options), the upload settings Strapi keeps in its database (size
 * optimization, responsive formats, auto orientation), and the limits of the multipart reader.
 */
import type { MultipartLimits } from './multipart.js';
import { uploadProviderFactory, type UploadProviderOptions } from './providers.js';

export interface UploadConfig {
  /**
   * Largest accepted file, in bytes; a larger one is refused with 413 PayloadTooLargeError
   * while it is being received. Default 200 MB (200 × 1024 × 1024), the limit a default
   * Strapi v4 project enforces in practice (its body parser's `maxFileSize`).
   */
  readonly sizeLimit: number;
  /** Most files one request may carry (413 beyond). Default 20. */
  readonly maxFiles: number;
  /** Most non-file form fields one request may carry (413 beyond). Default 50. */
  readonly maxFields: number;
  /** Largest non-file form field value (`fileInfo`), in bytes (413 beyond). Default 1 MB. */
  readonly fieldSizeLimit: number;
  /** Responsive formats: name → largest side in pixels. Default `{ large: 1000, medium: 750, small: 500 }`. */
  readonly breakpoints: Readonly<Record<string, number>>;
  /** Generate the responsive formats (Strapi's `responsiveDimensions` setting). Default true. */
  readonly responsiveDimensions: boolean;
  /**
   * Re-encode images (JPEG, PNG, WebP, TIFF, AVIF) at quality 80 and store the result, even
   * when it is larger than the upload, as Strapi does (its `sizeOptimization` setting, on by
   * default there too). Default true.
   */
  readonly sizeOptimization: boolean;
  /** Rotate images according to their EXIF orientation (Strapi's `autoOrientation`). Default false. */
  readonly autoOrientation: boolean;
  /**
   * Largest image (width × height, read from its header) that is decoded to make formats or
   * optimize it; a larger one is refused with 413 PayloadTooLargeError before it is decoded.
   * Decoding takes about 4 bytes a pixel (a 250 KB PNG of 16000 × 16000 took 1.5 GB and 12 s).
   * Default 50,000,000 (50 megapixels, e.g. 8660 × 5773; sharp's own limit is 268,402,689).
   */
  readonly maxImagePixels: number;
  /**
   * Images processed at once by this process (decoding, optimization, formats); more uploads
   * wait their turn, so memory stays bounded by this × the largest image. Default 2.
   */
  readonly imageConcurrency: number;
  /** Where files are received before they are stored. Default `<os tmpdir>/contentgen-uploads`. */
  readonly tmpDir?: string;
  /** `Cache-Control: public, max-age=<seconds>` of served files. Default 60, Strapi's public folder. */
  readonly maxAge: number;
  /** Where files are stored: `public/uploads/` (served at /uploads), or another provider (an S3 bucket…). Default local. */
  readonly provider: UploadProviderConfig;
}

/** The local provider, or a registered one with its checked settings (providers.ts). */
export type UploadProviderConfig = { readonly name: 'local' } | { readonly name: string; readonly settings: unknown };

/** The local provider in `upload.config`: the default. */
interface LocalProviderChoice {
  provider?: 'local';
  providerOptions?: LocalProviderOptions;
}

/** Another provider in `upload.config`: one of those the server was built with, and its options. */
type RegisteredProviderChoice = { [Name in keyof UploadProviderOptions]: { provider: Name } & UploadProviderOptions[Name] }[keyof UploadProviderOptions];

/**
 * Strapi v4's `config/plugins.js` → `upload.config`, as it is written there: the provider and
 * its options, and any of the settings above (`sizeLimit`, `breakpoints`…).
 */
export type StrapiUploadConfig = Partial<Omit<UploadConfig, 'provider'>> & (LocalProviderChoice | RegisteredProviderChoice);

/**
 * Strapi v4's local provider options (`upload.config.providerOptions`), which Strapi 4.26.2
 * still honours: `sizeLimit` (deprecated there, and then taking precedence over
 * `upload.config.sizeLimit`) and `localServer`, koa-static's options for /uploads, of which
 * `maxage` (milliseconds) is the served files' `Cache-Control: max-age`.
 */
export interface LocalProviderOptions {
  sizeLimit?: number;
  localServer?: { maxage?: number } & Record<string, unknown>;
}

/** `plugins.upload` of src/config.ts: the settings above, and Strapi's `config` block. */
export type UploadUserConfig = Partial<Omit<UploadConfig, 'provider'>> & { config?: StrapiUploadConfig };

export const defaultBreakpoints: Readonly<Record<string, number>> = { large: 1000, medium: 750, small: 500 };

export const defaultUploadConfig: UploadConfig = {
  sizeLimit: 200 * 1024 * 1024,
  maxFiles: 20,
  maxFields: 50,
  fieldSizeLimit: 1024 * 1024,
  breakpoints: defaultBreakpoints,
  responsiveDimensions: true,
  sizeOptimization: true,
  autoOrientation: false,
  maxImagePixels: 50_000_000,
  imageConcurrency: 2,
  maxAge: 60,
  provider: { name: 'local' },
};

/** Defaults overridden by the user's settings; a wrong value fails at start, naming the key. */
export function resolveUploadConfig(user: UploadUserConfig = {}): UploadConfig {
  const { config: strapi, ...settings } = user;
  const at = 'config plugins.upload.config';
  if (strapi !== undefined && (typeof strapi !== 'object' || strapi === null)) throw new Error(`${at} must be an object`);
  const { provider: providerName, providerOptions, actionOptions, ...written } = (strapi ?? {}) as Partial<Omit<UploadConfig, 'provider'>> & { provider?: unknown; providerOptions?: unknown; actionOptions?: unknown };
  const local = providerName === undefined || providerName === 'local' ? fromLocalProviderOptions(providerOptions as LocalProviderOptions | undefined, written.maxAge) : {};
  const strapiSettings = { ...written, ...local };
  for (const [key, value] of Object.entries(withoutUndefined(strapiSettings))) {
    const flat = (settings as Record<string, unknown>)[key];
    if (flat !== undefined && JSON.stringify(flat) !== JSON.stringify(value)) {
      throw new Error(`config plugins.upload.${key} and ${at}.${key} disagree: set one of them`);
    }
  }
  let provider: UploadProviderConfig;
  if (providerName === undefined || providerName === 'local') provider = { name: 'local' };
  else if (typeof providerName === 'string' && providerName.trim() !== '') provider = { name: providerName, settings: uploadProviderFactory(providerName, at).resolve(providerOptions, actionOptions, at) };
  else throw new Error(`${at}.provider must be a provider's name ('local' or one the server was built with), got ${JSON.stringify(providerName)}`);
  const config: UploadConfig = { ...defaultUploadConfig, ...withoutUndefined(strapiSettings), ...withoutUndefined(settings), provider };
  for (const key of ['sizeLimit', 'maxFiles', 'maxFields', 'fieldSizeLimit', 'maxImagePixels', 'imageConcurrency'] as const) {
    if (!Number.isSafeInteger(config[key]) || config[key] < 1) {
      throw new Error(`upload config ${key} must be a positive integer, got ${String(config[key])}`);
    }
  }
  if (!Number.isSafeInteger(config.maxAge) || config.maxAge < 0) {
    throw new Error(`upload config maxAge must be a whole number of seconds, got ${String(config.maxAge)}`);
  }
  for (const [name, size] of Object.entries(config.breakpoints)) {
    if (!/^[A-Za-z0-9]+$/.test(name) || name === 'thumbnail') {
      throw new Error(`upload config breakpoints: "${name}" must be letters and digits, and not "thumbnail"`);
    }
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new Error(`upload config breakpoints.${name} must be a positive integer, got ${String(size)}`);
    }
  }
  for (const key of ['responsiveDimensions', 'sizeOptimization', 'autoOrientation'] as const) {
    if (typeof config[key] !== 'boolean') throw new Error(`upload config ${key} must be true or false`);
  }
  return config;
}

/** The settings the local provider's options give (see LocalProviderOptions). */
function fromLocalProviderOptions(options: LocalProviderOptions | undefined, maxAge: number | undefined): Partial<UploadConfig> {
  const settings: { sizeLimit?: number; maxAge?: number } = {};
  if (options?.sizeLimit !== undefined) settings.sizeLimit = options.sizeLimit;
  const maxage = options?.localServer?.maxage;
  if (maxAge === undefined && typeof maxage === 'number' && maxage >= 0) settings.maxAge = Math.floor(maxage / 1000);
  return settings;
}

/** What the multipart reader accepts under these settings. */
export function multipartLimits(config: UploadConfig): MultipartLimits {
  return { fileSize: config.sizeLimit, files: config.maxFiles, fields: config.maxFields, fieldSize: config.fieldSizeLimit };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
