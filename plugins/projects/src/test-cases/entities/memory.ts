import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One durable project learning with its provenance. */
@Entity('projects_memory')
export class MemoryRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  project_id!: number;

  @Column({ type: 'integer' })
  owner_id!: number;

  /** learning | verified_run | negotiation */
  @Column({ type: 'varchar', length: 20 })
  kind!: string;

  @Column({ type: 'text' })
  text!: string;

  /** sha256 of the normalized text: the same learning is stored once, found by index, not by scan. */
  @Column({ type: 'varchar', length: 64 })
  text_key!: string;

  @Column({ type: 'integer', nullable: true })
  test_case_id!: number | null;

  /** Who or what recorded it: `agent:<username>`, `tool:run_tests`, ... */
  @Column({ type: 'varchar', length: 200 })
  source!: string;

  /** The run, execution or document it came from. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  source_ref!: string | null;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;
}

/** Client-reported `downstream_reuse` outcomes, kept only as per-project totals. */
@Entity('projects_memory_reuse')
export class MemoryReuseRow {
  @Column({ type: 'integer', primary: true })
  project_id!: number;

  @Column({ type: 'integer', default: 0 })
  reused!: number;

  @Column({ type: 'integer', default: 0 })
  not_reused!: number;
}
