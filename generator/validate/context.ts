import type { LoadedModels, RawFile } from '../load/load-models.js';
import type { ModelError } from './model-error.js';

/** What every rule sees: the loaded files and a way to report a problem. */
export interface ValidationContext {
  readonly models: LoadedModels;
  report(file: RawFile | string, pointer: string, message: string): void;
}

/** A rule checks one invariant of the models and reports each violation. */
export type ValidationRule = (context: ValidationContext) => void;

export function createContext(models: LoadedModels): { context: ValidationContext; errors: ModelError[] } {
  const errors: ModelError[] = [];
  return {
    errors,
    context: {
      models,
      report(file, pointer, message) {
        errors.push({ file: typeof file === 'string' ? file : file.file, pointer, message });
      },
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
