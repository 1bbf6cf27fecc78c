import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsString, Length, ValidateIf, ValidateNested } from 'class-validator';

/**
 * Applies decorators bottom-up, as a stack written above a property is applied, so class-validator
 * checks (and reports the first failing constraint) in the order the stack reads.
 */
export const stacked = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators.reverse());

/**
 * A field the request may leave out. Unlike class-validator's `@IsOptional()`, which also lets
 * `null` through unchecked, only an absent field skips the field's rules: `"name": null` is E2000
 * like any other value of the wrong type. Every optional request field uses this.
 */
export const Optional = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** A nested object of class `type`: an object (never an array or null), validated field by field. */
export const NestedObject = (type: new () => object) =>
  stacked(
    IsObject(),
    ValidateNested(),
    Type(() => type),
  );

/** An array of nested objects of class `type`, each an object validated field by field. */
export const NestedArray = (type: new () => object) =>
  stacked(
    IsArray(),
    IsObject({ each: true }),
    ValidateNested({ each: true }),
    Type(() => type),
  );

/**
 * The optional `metadata` request field every writable record has: a JSON object the caller keeps
 * on the record and gets back unchanged. Validation and OpenAPI entry in one place.
 */
export function MetadataField(example?: Record<string, unknown>) {
  return stacked(ApiPropertyOptional(example ? { example } : {}), Optional(), IsObject());
}

/** The optional `labels` request field: up to 50 strings of 1 to 100 characters, filterable in lists. */
export function LabelsField(example: string[]) {
  return stacked(
    ApiPropertyOptional({ example }),
    Optional(),
    IsArray(),
    ArrayMaxSize(50),
    IsString({ each: true }),
    Length(1, 100, { each: true }),
  );
}

/** An optional nested object of class `type`, validated field by field. */
export function NestedField(type: new () => object, description?: string) {
  return stacked(ApiPropertyOptional(description ? { type, description } : { type }), Optional(), NestedObject(type));
}
