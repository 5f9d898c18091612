import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A test case. JSON fields (`steps`, `tags`) are stored as text for portability. */
@Entity('projects_test_cases')
@Index('projects_test_cases_project', ['project_id', 'id'])
export class TestCaseRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  project_id!: number;

  /** The project's owner, copied here so every id check is one indexed read. */
  @Column({ type: 'integer' })
  owner_id!: number;

  @Column({ type: 'varchar', length: 500 })
  title!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  /** Free text; never read as steps. */
  @Column({ type: 'text', default: '' })
  detailed_instructions!: string;

  @Column({ type: 'text', default: '' })
  preconditions!: string;

  /** JSON array of {step, expected?, resource_id?}. */
  @Column({ type: 'text', default: '[]' })
  steps!: string;

  @Column({ type: 'text', default: '' })
  expected_result!: string;

  @Column({ type: 'varchar', length: 10 })
  priority!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  category!: string;

  /** JSON array of strings. */
  @Column({ type: 'text', default: '[]' })
  tags!: string;

  @Column({ type: 'varchar', length: 20 })
  status!: string;

  /** Where an imported case came from (document name or `testrail`). */
  @Column({ type: 'varchar', length: 300, nullable: true })
  source_name!: string | null;

  /** Stable identity of an imported case, so a re-import updates instead of duplicating. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  external_ref!: string | null;

  @Column({ type: 'varchar', length: 40 })
  version!: string;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40 })
  updated_at!: string;
}
