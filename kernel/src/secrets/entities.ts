import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A sealed secret value (AES-256-GCM), namespaced by owner and key. */
@Entity('kernel_secrets')
@Index('kernel_secrets_owner_key', ['owner_id', 'key'], { unique: true })
export class SecretRow {
  @PrimaryGeneratedColumn()
  id!: number;

  /** 0 = server-wide (e.g. the model endpoint's key). */
  @Column({ type: 'integer' })
  owner_id!: number;

  @Column({ type: 'varchar', length: 200 })
  key!: string;

  @Column({ type: 'text' })
  sealed!: string;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40 })
  updated_at!: string;
}
