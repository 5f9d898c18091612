import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class KernelSecrets1700000000002 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'kernel_secrets',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'owner_id', type: 'integer' },
          { name: 'key', type: 'varchar', length: '200' },
          { name: 'sealed', type: 'text' },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'updated_at', type: 'varchar', length: '40' },
        ],
      }),
    );
    await qr.createIndex('kernel_secrets', new TableIndex({ name: 'kernel_secrets_owner_key', columnNames: ['owner_id', 'key'], isUnique: true }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('kernel_secrets');
  }
}
