import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/** The bytes of a file, for the PostgreSQL storage adapter (docs/FILES.md). */
@Entity({ name: 'file_contents' })
export class FileContent extends ModeRecord {
  @PrimaryColumn('text') key: string;
  @Column('text') content_type: string;
  @Column('integer') size: number;
  @Column('text') sha256: string;
  /** Null for a streamed file: its bytes are in `file_content_parts` (PostgresFileStorage). */
  @Column('bytea', { nullable: true }) body: Buffer | null;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
}
