import type { LoadedModels, RawFile } from '../load/load-models.js';
import type { ModelError } from './model-error.js';

/** What every rule sees: the loaded files and a way to report a problem, or a warning. */
export interface ValidationContext {
  readonly models: LoadedModels;
  report(file: RawFile | string, pointer: string, message: string): void;
  /** Something Strapi accepts and the build follows, that the user should know about. */
  warn(file: RawFile | string, pointer: string, message: string): void;
}

/** A rule checks one invariant of the models and reports each violation. */
export type ValidationRule = (context: ValidationContext) => void;

export function createContext(models: LoadedModels): { context: ValidationContext; errors: ModelError[]; warnings: ModelError[] } {
  const errors: ModelError[] = [];
  const warnings: ModelError[] = [];
  const at = (file: RawFile | string, pointer: string, message: string): ModelError => ({ file: typeof file === 'string' ? file : file.file, pointer, message });
  return {
    errors,
    warnings,
    context: {
      models,
      report: (file, pointer, message) => void errors.push(at(file, pointer, message)),
      warn: (file, pointer, message) => void warnings.push(at(file, pointer, message)),
    },
  };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON pointer segment escaping (RFC 6901). */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The attributes object of a model file, or {} when it is missing (reported elsewhere). */
export function attributesOf(json: unknown): Record<string, unknown> {
  return isPlainObject(json) && isPlainObject(json.attributes) ? json.attributes : {};
}

/** `content type "api::article.article", attribute "title"` */
export function where(owner: { uid: string }, kind: 'content type' | 'component', attribute?: string): string {
  return `${kind} "${owner.uid}"${attribute === undefined ? '' : `, attribute "${attribute}"`}`;
}
