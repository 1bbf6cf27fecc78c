import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiQuery, getSchemaPath } from '@nestjs/swagger';
import { ListEnvelopeDto } from './list-engine.js';
import type { Request } from 'express';
import { parseListQuery, type ListSpec } from './list-query.js';

/** Injects the parsed, validated list query of the request. */
export const ListQueryParams = createParamDecorator((spec: ListSpec, ctx: ExecutionContext) =>
  parseListQuery(ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown>, spec),
);

/** Documents the common list parameters and the spec's filter fields. */
export function ApiListQuery(spec: ListSpec) {
  const fields = Object.keys(spec.filters).join(', ');
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
    ApiQuery({
      name: 'filter',
      required: false,
      style: 'deepObject',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
      description: `filter[field]=value (equality) or filter[field][op]=value with op in eq, ne, gt, gte, lt, lte, in (comma list). Fields: ${fields}.`,
    }),
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
