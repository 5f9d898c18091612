import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const PROJECT_TYPES = ['web', 'native_mobile'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

@Entity('projects_projects')
export class ProjectRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  owner_id!: number;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Lower-cased, punctuation-free name used by the similar-project check. */
  @Column({ type: 'varchar', length: 200 })
  name_normalized!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  main_url!: string | null;

  @Column({ type: 'varchar', length: 10 })
  key!: string;

  @Column({ type: 'varchar', length: 120 })
  slug!: string;

  @Column({ type: 'varchar', length: 20, default: 'web' })
  project_type!: string;

  /** JSON text: pipeline gates and other settings (model configuration, ...). */
  @Column({ type: 'text', default: '{}' })
  test_frameworks!: string;

  @Column({ type: 'varchar', length: 40 })
  version!: string;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40 })
  updated_at!: string;
}
