import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { FileType } from '../file-type.js';

@Entity({ name: 'files' })
export class FileRecord extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') purpose: string;
  @Column('text') filename: string;
  @Column('integer') size: number;
  @Column('text') type: FileType;
  @Column('text') sha256: string;
  /** The key of the bytes in the file storage. */
  @Column('text') storage_key: string;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
}
