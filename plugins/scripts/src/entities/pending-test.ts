import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A generated test waiting for review (`accept_pending_tests`). Ids are strings (`pt_...`). */
@Entity('scripts_pending_tests')
export class PendingTestRow {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

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

  /** Which engine wrote the code (`deterministic`, a model provider, ...). */
  @Column({ type: 'varchar', length: 60 })
  engine!: string;

  /** JSON text: steps the generator could not translate. */
  @Column({ type: 'text', default: '[]' })
  untranslated!: string;

  /** `pending` until accepted; then `accepted` with the script it became. */
  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status!: string;

  @Column({ type: 'integer', nullable: true })
  script_id!: number | null;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  accepted_at!: string | null;
}
