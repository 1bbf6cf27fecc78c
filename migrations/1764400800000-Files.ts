import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Uploaded files (docs/FILES.md): `files` describes each upload; `file_contents` holds the bytes
 * for the PostgreSQL storage adapter, keyed as an object store would be.
 */
export class Files1764400800000 implements MigrationInterface {
  name = 'Files1764400800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.files (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         purpose text NOT NULL,
         filename text NOT NULL,
         size integer NOT NULL,
         type text NOT NULL,
         sha256 text NOT NULL,
         storage_key text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now())`,
      `CREATE INDEX files_app_created_idx ON ${s}.files (application_id, created_at, id)`,
      `CREATE TABLE ${s}.file_contents (
         key text PRIMARY KEY,
         content_type text NOT NULL,
         size integer NOT NULL,
         sha256 text NOT NULL,
         body bytea NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now())`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP TABLE ${s}.file_contents`, `DROP TABLE ${s}.files`]);
  }
}
