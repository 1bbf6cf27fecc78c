import { v7 as uuidv7 } from 'uuid';

/** Ids are UUIDv7: time-ordered, so inserts are index-local and id is a natural keyset tie-breaker. */
export const newId = (): string => uuidv7();

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);
