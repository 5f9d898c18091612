import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An automation script. Table `scripts_scripts` (read-only for other parts of this pack: go through
 * ScriptStore). `version` changes on every write; ownership is the parent project's owner.
 */
@Entity('scripts_scripts')
export class ScriptRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  owner_id!: number;

  @Column({ type: 'integer' })
  project_id!: number;

  @Column({ type: 'integer', nullable: true })
  test_case_id!: number | null;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 40 })
  framework!: string;

  @Column({ type: 'text' })
  code!: string;

  @Column({ type: 'varchar', length: 40 })
  version!: string;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40 })
  updated_at!: string;
}
