import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('kernel_users')
export class UserRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  username!: string;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;
}

@Entity('kernel_api_tokens')
export class ApiTokenRow {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer' })
  user_id!: number;

  /** Shown to the operator, e.g. `tk_AbCd…`, so tokens can be told apart without the secret. */
  @Column({ type: 'varchar', length: 20 })
  prefix!: string;

  /** SHA-256 of the full token; the token itself is never stored. */
  @Column({ type: 'varchar', length: 64, unique: true })
  hash!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  label!: string;

  @Column({ type: 'varchar', length: 40 })
  created_at!: string;

  @Column({ type: 'varchar', length: 40, nullable: true })
  revoked_at!: string | null;
}
