import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One durable job (`kernel_jobs`). JSON columns are text so both dialects store them alike. */
@Entity('kernel_jobs')
export class JobRow {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  kind!: string;

  @Column({ type: 'integer' })
  owner_id!: number;

  @Column({ type: 'varchar', length: 20 })
  state!: string;

  @Column({ type: 'text' })
  payload!: string;

  @Column({ type: 'text', nullable: true })
  result!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'text', nullable: true })
  progress!: string | null;

  /** Jobs sharing a key never run at the same time (e.g. one generation per user). */
  @Column({ type: 'varchar', length: 200, nullable: true })
  concurrency_key!: string | null;

  /** `host:pid:instance` of the process running it. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  worker_id!: string | null;

  /** A running job whose lease passed belongs to a dead worker. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  lease_until!: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  started_at!: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  finished_at!: string | null;
}
