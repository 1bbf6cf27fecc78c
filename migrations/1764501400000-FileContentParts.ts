import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Streamed files in the PostgreSQL storage (docs/FILES.md, "Streamed files"): a file written as a
 * stream keeps its bytes in ordered parts of `file_content_parts` and a `file_contents` row whose
 * `body` is null; files stored before (and uploads, a single part) keep their bytes in `body`.
 */
export class FileContentParts1764501400000 implements MigrationInterface {
  name = 'FileContentParts1764501400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.file_contents ALTER COLUMN body DROP NOT NULL`,
      `CREATE TABLE ${s}.file_content_parts (
         key text NOT NULL REFERENCES ${s}.file_contents (key) ON DELETE CASCADE,
         part_number integer NOT NULL,
         body bytea NOT NULL,
         PRIMARY KEY (key, part_number))`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.file_content_parts`,
      `DELETE FROM ${s}.file_contents WHERE body IS NULL`,
      `ALTER TABLE ${s}.file_contents ALTER COLUMN body SET NOT NULL`,
    ]);
  }
}
