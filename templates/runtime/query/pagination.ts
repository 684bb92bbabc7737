/**
 * `pagination`: page mode (`page`, `pageSize`) or offset mode (`start`, `limit`), and
 * the `meta.pagination` object each mode answers with, following Strapi v4's
 * core-api pagination service.
 */
import { ValidationError } from '../errors.js';
import { parseBoolean } from './encode.js';
import { isPlainObject } from './is-plain-object.js';

export interface PaginationConfig {
  /** `api.rest.defaultLimit`: page size when none is asked for. */
  readonly defaultLimit: number;
  /** `api.rest.maxLimit`: the largest page; 0 or less means no maximum. */
  readonly maxLimit: number;
  /** `api.rest.withCount`: whether totals are counted when the request does not say. */
  readonly withCount: boolean;
}

// Type aliases rather than interfaces so that they convert to Record<string, number>.
export type PagedPaginationMeta = {
  page: number;
  pageSize: number;
  pageCount?: number;
  total?: number;
};

export type OffsetPaginationMeta = {
  start: number;
  /** -1 when unlimited. */
  limit: number;
  total?: number;
};

export interface Pagination {
  readonly mode: 'page' | 'offset';
  /** Rows to return; null means no limit. */
  readonly limit: number | null;
  readonly offset: number;
  readonly withCount: boolean;
  /** `meta.pagination`; `total` (and `pageCount`) only when counting and a total is given. */
  meta(total?: number): PagedPaginationMeta | OffsetPaginationMeta;
}

export const mixedPaginationMessage = 'Invalid pagination parameters. Expected either start/limit or page/pageSize';
export const withCountMessage = 'Invalid withCount parameter. Expected "t","1","true","false","0","f"';

type PaginationKey = 'page' | 'pageSize' | 'start' | 'limit';

/**
 * An integer parameter; absent, `null` (`pagination[page]`) and `''` fall back to the
 * default, anything but an integer is a 400 (Strapi would feed NaN to the database).
 */
function readInteger(params: Record<string, unknown>, key: PaginationKey, fallback: number): number {
  const raw = params[key];
  if (raw === undefined || raw === null || raw === '') return fallback;
  const value = typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new ValidationError(`Invalid pagination[${key}] parameter. Expected an integer`);
  }
  return value;
}

function readWithCount(params: Record<string, unknown>, fallback: boolean): boolean {
  if (!Object.hasOwn(params, 'withCount')) return fallback;
  const value = parseBoolean(params['withCount']);
  if (value === undefined) throw new ValidationError(withCountMessage);
  return value;
}

/** A size above a positive maxLimit becomes maxLimit. */
function clamp(size: number, maxLimit: number): number {
  return maxLimit > 0 && size > maxLimit ? maxLimit : size;
}

function assertSafeOffset(offset: number): number {
  if (!Number.isSafeInteger(offset)) throw new ValidationError('Invalid pagination parameters. Offset is too large');
  return offset;
}

export function resolvePagination(raw: unknown, config: PaginationConfig): Pagination {
  // A non-object `pagination` (`?pagination=5`) carries no keys, as in Strapi.
  const params = isPlainObject(raw) ? raw : {};
  const has = (key: PaginationKey) => Object.hasOwn(params, key);
  const withCount = readWithCount(params, config.withCount);
  const isOffset = has('start') || has('limit');

  if (has('page') || has('pageSize') || !isOffset) {
    if (isOffset) throw new ValidationError(mixedPaginationMessage);
    const page = Math.max(1, readInteger(params, 'page', 1));
    const pageSize = clamp(Math.max(1, readInteger(params, 'pageSize', config.defaultLimit)), config.maxLimit);
    const offset = assertSafeOffset((page - 1) * pageSize);
    return {
      mode: 'page',
      limit: pageSize,
      offset,
      withCount,
      meta(total) {
        if (!withCount || total === undefined) return { page, pageSize };
        return { page, pageSize, pageCount: Math.ceil(total / pageSize), total };
      },
    };
  }

  const start = Math.max(0, readInteger(params, 'start', 0));
  const requested = readInteger(params, 'limit', config.defaultLimit);
  // -1 (any negative, which PostgreSQL would reject) asks for everything, capped by maxLimit.
  const limit = requested < 0 ? (config.maxLimit > 0 ? config.maxLimit : null) : clamp(requested, config.maxLimit);
  const metaLimit = limit ?? -1;
  return {
    mode: 'offset',
    limit,
    offset: start,
    withCount,
    meta(total) {
      if (!withCount || total === undefined) return { start, limit: metaLimit };
      return { start, limit: metaLimit, total };
    },
  };
}
