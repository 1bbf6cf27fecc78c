export * from './list-query.js';
export * from './list-engine.js';
export { ListQueryParams, ApiListQuery, ApiListResponse } from './list-query.decorator.js';
export { ListFilters } from './list-filters.js';
