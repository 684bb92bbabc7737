/** The read-query layer: query-string parsing, validation and SQL compilation. */
export { parseQueryString, queryStringOptions } from './parse.js';
export { SqlBuilder, type CompiledSql } from './sql.js';
export { encodeValue, parseBoolean, toTruthy } from './encode.js';
export { compileFilters } from './filters.js';
export { compileOrderBy, parseSort, type SortDirection, type SortTerm } from './sort.js';
export { allSelectableFields, parseFields } from './fields.js';
export {
  resolvePagination,
  type OffsetPaginationMeta,
  type PagedPaginationMeta,
  type Pagination,
  type PaginationConfig,
} from './pagination.js';
export { compileSearch, searchableFields } from './search.js';
export {
  buildFindOneQuery,
  buildFindQuery,
  parsePublicationState,
  type FindOneQuery,
  type FindQuery,
  type PublicationState,
  type ReadOptions,
} from './list.js';
