import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class KernelJobs1700000000101 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'kernel_jobs',
        columns: [
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '100' },
          { name: 'owner_id', type: 'integer' },
          { name: 'state', type: 'varchar', length: '20' },
          { name: 'payload', type: 'text' },
          { name: 'result', type: 'text', isNullable: true },
          { name: 'error', type: 'text', isNullable: true },
          { name: 'progress', type: 'text', isNullable: true },
          { name: 'concurrency_key', type: 'varchar', length: '200', isNullable: true },
          { name: 'worker_id', type: 'varchar', length: '200', isNullable: true },
          { name: 'lease_until', type: 'varchar', length: '40', isNullable: true },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'started_at', type: 'varchar', length: '40', isNullable: true },
          { name: 'finished_at', type: 'varchar', length: '40', isNullable: true },
        ],
      }),
    );
    await qr.createIndex('kernel_jobs', new TableIndex({ name: 'kernel_jobs_state', columnNames: ['state', 'created_at'] }));
    await qr.createIndex('kernel_jobs', new TableIndex({ name: 'kernel_jobs_key', columnNames: ['concurrency_key', 'state'] }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('kernel_jobs');
  }
}
