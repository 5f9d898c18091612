import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

export class KernelUsersAndTokens1700000000001 implements MigrationInterface {
  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'kernel_users',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'username', type: 'varchar', length: '100', isUnique: true },
          { name: 'created_at', type: 'varchar', length: '40' },
        ],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'kernel_api_tokens',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'prefix', type: 'varchar', length: '20' },
          { name: 'hash', type: 'varchar', length: '64', isUnique: true },
          { name: 'label', type: 'varchar', length: '100', default: "''" },
          { name: 'created_at', type: 'varchar', length: '40' },
          { name: 'revoked_at', type: 'varchar', length: '40', isNullable: true },
        ],
        foreignKeys: [{ columnNames: ['user_id'], referencedTableName: 'kernel_users', referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
      }),
    );
    await qr.createIndex('kernel_api_tokens', new TableIndex({ name: 'kernel_api_tokens_user', columnNames: ['user_id'] }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('kernel_api_tokens');
    await qr.dropTable('kernel_users');
  }
}

