import type { QueryRunner } from 'typeorm';

/** Both mode schemas get their tables from the same code, so they can never differ. */
export const MODE_SCHEMAS = ['wallet_test', 'wallet_live'] as const;

export async function forEachModeSchema(
  queryRunner: QueryRunner,
  statements: (schema: string) => string[],
): Promise<void> {
  for (const schema of MODE_SCHEMAS) {
    for (const sql of statements(schema)) await queryRunner.query(sql);
  }
}
