import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'applications', schema: 'platform' })
export class Application {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  slug: string;

  @Column('text')
  name: string;

  @Column('text', { array: true })
  countries: string[];

  @CreateDateColumn({ type: 'timestamptz' })
  created_at: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updated_at: Date;
}
