import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import { ListEnvelopeDto } from './list-engine.js';
import type { Request } from 'express';
import { type FieldSpec, type Operator, parseListQuery, type ListSpec } from './list-query.js';

/** Injects the parsed, validated list query of the request. */
export const ListQueryParams = createParamDecorator((spec: ListSpec, ctx: ExecutionContext) =>
  parseListQuery(ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown>, spec),
);

const ORDERED: FieldSpec['type'][] = ['integer', 'bigint', 'timestamp'];
const VALUE_SCHEMA: Record<FieldSpec['type'], Record<string, unknown>> = {
  uuid: { type: 'string', format: 'uuid' },
  text: { type: 'string' },
  integer: { type: 'integer' },
  bigint: { type: 'integer' },
  boolean: { type: 'boolean' },
  timestamp: { type: 'string', format: 'date-time' },
  labels: { type: 'string' },
};

/**
 * One explicit query parameter per filter field and operator (`filter[amount]`,
 * `filter[amount][gte]`, ...), not a free map: Swagger UI then sends only what the user typed,
 * and generated clients name every filter. Order operators exist only for integers and times.
 */
function filterParameters(spec: ListSpec) {
  return Object.entries(spec.filters).flatMap(([field, f]) => {
    const ops: Operator[] = ORDERED.includes(f.type) ? ['ne', 'gt', 'gte', 'lt', 'lte', 'in'] : ['ne', 'in'];
    const value = { ...VALUE_SCHEMA[f.type], ...(f.values ? { enum: [...f.values] } : {}) };
    return [
      { name: `filter[${field}]`, required: false, description: `${field} equals.`, schema: value },
      ...ops.map((op) => ({
        name: `filter[${field}][${op}]`,
        required: false,
        description: op === 'in' ? `${field} is one of (comma-separated list).` : `${field} ${op}.`,
        schema: op === 'in' ? { type: 'string' } : value,
      })),
    ];
  });
}

/** Documents the common list parameters and one parameter per filter field and operator. */
export function ApiListQuery(spec: ListSpec) {
  return applyDecorators(
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } }),
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }),
    ApiQuery({ name: 'use-cursor', required: false, schema: { type: 'boolean', default: false } }),
    ApiQuery({
      name: 'starting_after',
      required: false,
      description: 'Cursor: id of the last record of the previous page.',
    }),
    ApiQuery({
      name: 'ending_before',
      required: false,
      description: 'Cursor: id of the first record of the next page.',
    }),
    ApiQuery({
      name: 'sort',
      required: false,
      description: `field:asc|desc; fields: ${spec.sortable.join(', ')}`,
      example: 'created_at:desc',
    }),
    ApiQuery({
      name: 'q',
      required: false,
      description: 'Case-insensitive search over ids, descriptions and references.',
    }),
    ...filterParameters(spec).map((p) => ApiQuery(p)),
    ...Object.entries(spec.params ?? {}).map(([name, f]) =>
      ApiQuery({ name, required: false, schema: { type: 'string', ...(f.values ? { enum: [...f.values] } : {}) } }),
    ),
  );
}

/** Documents a 200 list envelope whose `data` holds `model` records. */
export function ApiListResponse(model: Function) {
  return applyDecorators(
    ApiExtraModels(ListEnvelopeDto, model),
    ApiOkResponse({
      description: 'The list envelope.',
      schema: {
        allOf: [
          { $ref: getSchemaPath(ListEnvelopeDto) },
          { properties: { data: { type: 'array', items: { $ref: getSchemaPath(model) } } }, required: ['data'] },
        ],
      },
    }),
  );
}
