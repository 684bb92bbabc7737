/**
 * The type a custom field stores, in this order: the project's customFields.json (beside the
 * models) → what the installed plugin registers (its server code, read by
 * load/load-custom-fields.ts) → the built-in table of well-known plugins (custom-fields.ts) →
 * unknown: `json`, which keeps every value as sent (validation warns, naming the line to add
 * to customFields.json).
 */
import type { LoadedModels } from '../load/load-models.js';
import { builtInCustomFields, isCustomFieldType, type CustomFieldType } from './custom-fields.js';

export interface ResolvedCustomField {
  readonly type: CustomFieldType;
  /** Where the type comes from; `unknown` when nothing said (then `type` is json). */
  readonly source: 'customFields.json' | 'plugin' | 'built-in' | 'unknown';
  /** For `plugin`: the file holding the register call. */
  readonly from?: string;
}

export function resolveCustomField(models: Pick<LoadedModels, 'customFields' | 'projectCustomFields'>, uid: string): ResolvedCustomField {
  const json = models.customFields?.json;
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const mapped = (json as Record<string, unknown>)[uid];
    if (isCustomFieldType(mapped)) return { type: mapped, source: 'customFields.json' };
  }
  const registered = models.projectCustomFields?.registered.get(uid);
  if (registered) return { type: registered.type, source: 'plugin', from: registered.source };
  const builtIn = builtInCustomFields[uid];
  if (builtIn) return { type: builtIn, source: 'built-in' };
  return { type: 'json', source: 'unknown' };
}

/** A map whose `get` resolves any uid (unknown ones to json), for storedType(). */
export function customFieldResolver(models: Pick<LoadedModels, 'customFields' | 'projectCustomFields'>): ReadonlyMap<string, CustomFieldType> {
  return new ResolvingMap(models);
}

class ResolvingMap extends Map<string, CustomFieldType> {
  constructor(private readonly models: Pick<LoadedModels, 'customFields' | 'projectCustomFields'>) {
    super();
  }
  override get(uid: string): CustomFieldType {
    return resolveCustomField(this.models, uid).type;
  }
  override has(): boolean {
    return true;
  }
}
