import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';

/**
 * Applies decorators bottom-up, as a stack written above a property is applied, so class-validator
 * checks (and reports the first failing constraint) in the order the stack reads.
 */
export const stacked = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators.reverse());

/**
 * The optional `metadata` request field every writable record has: a JSON object the caller keeps
 * on the record and gets back unchanged. Validation and OpenAPI entry in one place.
 */
export function MetadataField(example?: Record<string, unknown>) {
  return stacked(ApiPropertyOptional(example ? { example } : {}), IsOptional(), IsObject());
}

/** The optional `labels` request field: up to 50 strings of 1 to 100 characters, filterable in lists. */
export function LabelsField(example: string[]) {
  return stacked(
    ApiPropertyOptional({ example }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(50),
    IsString({ each: true }),
    Length(1, 100, { each: true }),
  );
}

/** An optional nested object of class `type`, validated field by field. */
export function NestedField(type: new () => object, description?: string) {
  return stacked(
    ApiPropertyOptional(description ? { type, description } : { type }),
    IsOptional(),
    ValidateNested(),
    Type(() => type),
  );
}
